import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box, inverted, merged, toObj } from '../../mesh/testing/generate.ts';
import { simple3mf } from '../../mesh/testing/threemf.ts';
import { modelPayload } from '../../shared/models.ts';
import { type Customer, makeCustomer, post } from '../checkout/testing.ts';
import { priceUnit } from '../pricing/price.ts';
import { DEFAULT_PRICING } from '../pricing/settings.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { findModel } from './models-repository.ts';
import { meshStl, uploadRequest } from './testing.ts';

// Issue #23 §6, "the price covers what gets printed", through the HTTP app: a 120 mm cube plus a separate
// 120 mm cube wound inside out was analysed as almost nothing and priced at the $12.00 minimum. Now each
// closed part counts on its own: the upload says a part was corrected, the row keeps the count (staff
// look at an order holding such a model), and the cart's quote charges two cubes at every strength.

const INSIDE_OUT = { code: 'inside_out', message: 'Part of this model was inside out: we corrected it.' };

/** The probe: two 120 mm cubes 10 mm apart (250 mm in all: it fits the 256 mm printer), one inside out. */
const probe = merged(box(120, 120, 120), inverted(box(120, 120, 120, 130, 0, 0)));
/** Dollars for one piece of two 120 mm cubes (3456 cm3, 1728 cm2) at strengths 1-5. */
const twoCubes = [1, 2, 3, 4, 5].map(
  (s) => priceUnit({ volumeCm3: 3456, areaCm2: 1728 }, s, DEFAULT_PRICING).unitCents / 100,
);

let t: TestApp;
let alice: Customer;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  alice = await makeCustomer(t);
});
afterAll(() => t.close());

async function upload(fileName: string, bytes: Uint8Array, cookie = alice.cookie) {
  const res = await t.app.inject(uploadRequest({ fileName, bytes }, cookie));
  expect(res.statusCode).toBe(201);
  return modelPayload.parse(res.json());
}

describe('an upload with a part wound inside out', () => {
  it('is measured in full, says so, and keeps the count on the row', async () => {
    const model = await upload('probe.stl', meshStl(probe));
    expect(model).toMatchObject({ volumeCm3: 3456, areaCm2: 1728, watertight: true, fits: true });
    expect(model.warnings).toEqual([INSIDE_OUT]);
    expect(Object.values(model.prices)).toEqual(twoCubes);
    expect(model.prices['5']).toBe(937.27); // one cube alone: $470.14
    expect((await findModel(t.database.db, model.id))!.correctedShells).toBe(1);
    // Read again later: the warning is recomputed from the row.
    const again = await t.app.inject({ url: `/api/models/${model.id}`, headers: { cookie: alice.cookie } });
    expect(again.json().warnings).toEqual([INSIDE_OUT]);
  });

  it('is the same as OBJ and as 3MF', async () => {
    const obj = await upload('probe.obj', toObj(probe));
    const threeMf = await upload(
      'probe.3mf',
      simple3mf({ objects: [{ id: 1, mesh: probe }], build: [{ objectid: 1 }] }),
    );
    for (const model of [obj, threeMf]) {
      expect(model).toMatchObject({ volumeCm3: 3456, warnings: [INSIDE_OUT] });
      expect(Object.values(model.prices)).toEqual(twoCubes);
      expect((await findModel(t.database.db, model.id))!.correctedShells).toBe(1);
    }
  });

  it('keeps the count on a row sharing the file (the same bytes under another name), and when rescaled', async () => {
    const first = await upload('probe-1.stl', meshStl(probe));
    const shared = await upload('probe-2.stl', meshStl(probe));
    expect(shared.id).not.toBe(first.id);
    expect((await findModel(t.database.db, shared.id))!.storageKey).toBe(
      (await findModel(t.database.db, first.id))!.storageKey,
    );
    expect(shared.warnings).toEqual([INSIDE_OUT]);
    expect((await findModel(t.database.db, shared.id))!.correctedShells).toBe(1);
    // Drawn in inches: two 4 mm cubes 1 mm apart, one inside out, scaled by 25.4.
    const small = await upload('inches.stl', meshStl(merged(box(4, 4, 4), inverted(box(4, 4, 4, 5, 0, 0)))));
    expect(small.warnings.map((w) => w.code)).toEqual(['inside_out', 'maybe_inches']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/models/${small.id}/scale`,
      headers: { cookie: alice.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ factor: 25.4 }),
    });
    const scaled = modelPayload.parse(res.json());
    expect(scaled.scale).toBe(25.4);
    expect(scaled.warnings).toEqual([INSIDE_OUT]);
    expect((await findModel(t.database.db, scaled.id))!.correctedShells).toBe(1);
  });

  it('says nothing of a hollow model, whose inside-out inner part is a void', async () => {
    const hollow = await upload(
      'hollow.stl',
      meshStl(merged(box(40, 40, 40), inverted(box(20, 20, 20, 10, 10, 10)))),
    );
    expect(hollow).toMatchObject({ volumeCm3: 64 - 8, warnings: [] });
    expect((await findModel(t.database.db, hollow.id))!.correctedShells).toBe(0);
  });
});

describe('surfaces welded onto each other', () => {
  it('cannot cancel a part: a cube, the same cube inside out on top of it, and a cube touching it', async () => {
    // One welded part whose signed sum is the small cube alone (1 cm3): read again with its positions and
    // cut along the big cube's four-face edges, the big cube's sides count as |their signed volume|.
    const bytes = meshStl(merged(box(40, 40, 40), inverted(box(40, 40, 40)), box(10, 10, 10, 40, 40, 0)));
    const model = await upload('cancelled.stl', bytes);
    expect(model.volumeCm3).toBeGreaterThanOrEqual(64 + 1);
    expect(model.warnings.map((w) => w.code)).toEqual(['not_watertight']);
  });
});

describe('POST /api/cart/quote for the probe', () => {
  it('charges two cubes at every strength', async () => {
    const model = await upload('probe-cart.stl', meshStl(probe));
    const items = [1, 2, 3, 4, 5].map((strength) => ({
      modelId: model.id,
      color: '#007bff',
      strength,
      quantity: 1,
    }));
    const res = await post(t, '/api/cart/quote', { items }, alice.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.lines.map((l: { unitPrice: number }) => l.unitPrice)).toEqual(twoCubes);
    expect(body.lines.map((l: { lineTotal: number }) => l.lineTotal)).toEqual(twoCubes);
    expect(body.total).toBeCloseTo(
      twoCubes.reduce((a, b) => a + b, 0),
      9,
    );
    expect(Math.min(...twoCubes)).toBeGreaterThan(12);
  });
});
