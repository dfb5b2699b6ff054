import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../mesh/testing/png-decode.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { createPreviewLinks, type PreviewLinks } from './preview-links.ts';
import { boxStl, makeUser, uploadRequest } from './testing.ts';

// GET /api/models/:id/preview.png?color=<id>: the stored preview in a line's colour, validated against the
// catalog, with a validator per colour; signed links (mail, hosted checkout) sign their colour and are the
// only answers another site may show (Cross-Origin-Resource-Policy).

let t: TestApp;
let links: PreviewLinks;
let owner: { id: number; cookie: string };
let modelId: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  links = createPreviewLinks(t.database.db, TEST_ORIGIN);
  owner = await makeUser(t);
  const res = await t.app.inject(
    uploadRequest({ fileName: 'part.stl', bytes: boxStl(20, 12, 8) }, owner.cookie),
  );
  modelId = (res.json() as { id: string }).id;
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const path = (query = '') => `/api/models/${modelId}/preview.png${query}`;
/** A signed link as mailed, made relative to the test app. */
const signed = async (color?: string, expiresAt = new Date(Date.now() + 3600_000)) =>
  (await links.sign(modelId, expiresAt, color)).slice(TEST_ORIGIN.length);

/** Share of the model's (opaque enough) pixels where `channel` leads the other two by 40 or more. */
function dominantShare(png: Buffer, channel: 0 | 1 | 2): number {
  const { pixels } = decodePng(png);
  let covered = 0;
  let leading = 0;
  for (let o = 0; o < pixels.length; o += 4) {
    if (pixels[o + 3]! < 128) continue;
    covered++;
    const others = [0, 1, 2].filter((k) => k !== channel).map((k) => pixels[o + k]!);
    if (pixels[o + channel]! >= Math.max(...others) + 40) leading++;
  }
  return covered === 0 ? 0 : leading / covered;
}

describe('a preview in the line’s colour', () => {
  it('draws a red line red and a green line green, from the one stored preview', async () => {
    const stored = await get(path(), { cookie: owner.cookie });
    const red = await get(path('?color=red'), { cookie: owner.cookie });
    const green = await get(path('?color=green'), { cookie: owner.cookie });
    for (const res of [stored, red, green]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('private, max-age=86400');
    }
    // The stored one is drawn in the default colour (blue).
    expect(dominantShare(stored.rawPayload, 2)).toBeGreaterThan(0.8);
    expect(dominantShare(red.rawPayload, 0)).toBeGreaterThan(0.8);
    expect(dominantShare(green.rawPayload, 1)).toBeGreaterThan(0.8);
    const size = (b: Buffer) => [decodePng(b).width, decodePng(b).height];
    expect(size(red.rawPayload)).toEqual(size(stored.rawPayload));
  });

  it('has a validator per colour, answers 304 to a current copy and the same bytes again', async () => {
    const red = await get(path('?color=red'), { cookie: owner.cookie });
    const again = await get(path('?color=red'), { cookie: owner.cookie });
    const green = await get(path('?color=green'), { cookie: owner.cookie });
    const stored = await get(path(), { cookie: owner.cookie });
    const etag = String(red.headers.etag);
    expect(etag).toMatch(/^W\/".+-red"$/);
    expect(again.headers.etag).toBe(etag);
    expect(again.rawPayload.equals(red.rawPayload)).toBe(true);
    expect(new Set([etag, green.headers.etag, stored.headers.etag]).size).toBe(3);
    const current = await get(path('?color=red'), { cookie: owner.cookie, 'if-none-match': etag });
    expect(current.statusCode).toBe(304);
    expect(current.rawPayload.length).toBe(0);
    // Green's copy is not red's.
    const other = await get(path('?color=green'), { cookie: owner.cookie, 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    // Still nobody else's: a stranger's validator gets the same 404 as anything else.
    const stranger = await makeUser(t);
    const refused = await get(path('?color=red'), { cookie: stranger.cookie, 'if-none-match': etag });
    expect(refused.statusCode).toBe(404);
  });

  it.each([['?color=purple'], ['?color=Red'], ['?color=%23dc3545'], ['?color='], ['?color=red&color=blue']])(
    'refuses %s with a 400 that names the colours',
    async (query) => {
      const res = await get(path(query), { cookie: owner.cookie });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'Unknown preview color. Ask for one of: blue, red, green, yellow, black, white, gray.',
      });
    },
  );
});

describe('signed preview links', () => {
  it('answers Cross-Origin-Resource-Policy: cross-origin to a valid signed link only', async () => {
    for (const color of [undefined, 'red']) {
      const link = await signed(color);
      const res = await get(link);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const current = await get(link, { 'if-none-match': String(res.headers.etag) });
      expect(current.statusCode).toBe(304);
      expect(current.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    // The owner's own requests stay same-origin, coloured or not.
    for (const query of ['', '?color=red']) {
      const res = await get(path(query), { cookie: owner.cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('refuses a bad or expired signature as before: 404, same-origin', async () => {
    const good = await signed('red');
    const bad = good.replace(/sig=([\w-])/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const expired = await signed('red', new Date(Date.now() - 1000));
    for (const link of [bad, expired, path('?color=red&exp=99999999999&sig=')]) {
      const res = await get(link);
      expect(res.statusCode).toBe(404);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('signs the colour: a link cannot be given another colour, or lose or gain one', async () => {
    const red = await signed('#dc3545');
    expect(red).toMatch(/\?exp=\d+&sig=[\w-]+&color=red$/);
    const plain = await signed();
    expect(plain).not.toContain('color=');
    const recoloured = [
      red.replace('color=red', 'color=blue'),
      red.replace('&color=red', ''),
      plain.replace('?', '?color=red&'),
      `${plain}&color=green`,
    ];
    for (const link of recoloured) {
      const res = await get(link);
      expect(res.statusCode, link).toBe(404);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    // The owner may still ask for any colour with their session: then it is a same-origin answer.
    const own = await get(recoloured[0]!, { cookie: owner.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.headers['cross-origin-resource-policy']).toBe('same-origin');
    // An unknown colour on a signed link is refused as such, before any signature is read.
    expect((await get(red.replace('color=red', 'color=pink'))).statusCode).toBe(400);
  });
});
