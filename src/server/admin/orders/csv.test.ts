import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../auth/testing.ts';
import { orderItems, orders } from '../../db/schema.ts';
import { shopDate } from '../../shipping/ship-by.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { CSV_HEADER, CSV_PAGE } from './orders-csv.ts';
import { adminGet, insertOrder, makeAdmin } from './testing.ts';

// GET /api/admin/orders.csv: the filtered list for the accountant, one row per item, as a download that a
// spreadsheet opens safely (RFC 4180 quoting; formula-looking cells defused), every page of it.

let t: TestApp;
let cookie: string;
let userId: number;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await makeAdmin(t)).cookie;
  userId = (await createUser(t.database.db, { username: 'csv_buyer', email: 'csv@example.com' })).user.id;
});
afterAll(() => t.close());

/** RFC 4180 back into rows (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

async function download(query = '') {
  const res = await adminGet(t, `/api/admin/orders.csv${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(res.body.slice(1));
  expect(header).toEqual(CSV_HEADER);
  return { res, rows: rows.map((r) => Object.fromEntries(CSV_HEADER.map((h, i) => [h, r[i]]))) };
}

describe('GET /api/admin/orders.csv', () => {
  it('is a UTF-8 CSV attachment named for the day, not sniffed, not cached', async () => {
    const { res } = await download('?from=2099-01-01');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="orders-${shopDate(new Date())}.csv"`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('writes one row per item with the accountant’s columns', async () => {
    const order = await insertOrder(
      t.database.db,
      userId,
      {
        status: 'shipped',
        carrier: 'ups',
        trackingNumber: '1Z999AA10123456784',
        amountRefundedCents: 250,
        shippingCents: 0,
        customerEmail: 'ordered@example.com',
        createdAt: new Date('2030-05-01T12:00:00Z'),
        paidAt: new Date('2030-05-01T12:05:00Z'),
      },
      [
        { fileName: 'a.stl', quantity: 2, unitPriceCents: 1200, lineTotalCents: 2400 },
        {
          fileName: 'b.obj',
          color: '#dc3545',
          strength: 5,
          quantity: 10,
          unitPriceCents: 2246,
          lineTotalCents: 21337,
        },
      ],
    );
    const { rows } = await download('?from=2030-05-01&to=2030-05-01');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      Order: String(order.id),
      'Placed at': '2030-05-01T12:00:00.000Z',
      'Paid at': '2030-05-01T12:05:00.000Z',
      Status: 'shipped',
      'Test order': 'yes',
      'Customer name': 'Ada Lovelace',
      Username: 'csv_buyer',
      Email: 'ordered@example.com',
      'Ship-to country': 'US',
      'Ship-to state': 'WI',
      'Ship-to postal code': '53703',
      Item: expect.stringMatching(/^\d+$/),
      'File name': 'a.stl',
      Color: 'Blue',
      Strength: 'Standard',
      Quantity: '2',
      'Unit price': '12.00',
      'Line total': '24.00',
      'Order subtotal': '237.37',
      'Shipping method': '',
      Shipping: '0.00',
      Tax: '0.00',
      'Order total': '237.37',
      'Amount refunded': '2.50',
      Currency: 'USD',
      Carrier: 'ups',
      'Tracking number': '1Z999AA10123456784',
    });
    expect(rows[1]).toMatchObject({
      'File name': 'b.obj',
      Color: 'Red',
      Strength: 'Solid',
      'Unit price': '22.46',
      'Line total': '213.37',
    });
  });

  it('escapes commas, quotes and line breaks, and defuses cells starting with = + - @', async () => {
    const evil = {
      name: 'Lovelace, "Ada"\nCountess',
      file: '=HYPERLINK("http://evil.example","click")',
    };
    await insertOrder(
      t.database.db,
      userId,
      {
        shippingName: evil.name,
        shippingState: '+cmd',
        shippingPostalCode: '-2+3',
        createdAt: new Date('2030-06-01T15:00:00Z'),
      },
      [{ fileName: evil.file }, { fileName: '@SUM(A1:A9).stl' }],
    );
    const { res, rows } = await download('?from=2030-06-01&to=2030-06-01');
    expect(rows.map((r) => r['File name'])).toEqual([`'${evil.file}`, "'@SUM(A1:A9).stl"]);
    expect(rows[0]).toMatchObject({
      'Customer name': evil.name,
      'Ship-to state': "'+cmd",
      'Ship-to postal code': "'-2+3",
    });
    expect(res.body).toContain('"Lovelace, ""Ada""\nCountess"');
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
  });

  it('keeps a separator or a tab in a cell from starting a formula cell, and markup as text (issue #28)', async () => {
    const evil = {
      name: 'Eve;=HYPERLINK("http://evil.example","x")',
      file: "\t=cmd|' /C calc'!A0.stl",
      crFile: '\r@SUM(1+1)*cmd.stl',
      method: '<img src=x onerror=alert(1)>;-1',
    };
    await insertOrder(
      t.database.db,
      userId,
      {
        shippingName: evil.name,
        shippingMethod: evil.method,
        createdAt: new Date('2030-07-01T15:00:00Z'),
      },
      [{ fileName: evil.file }, { fileName: evil.crFile }],
    );
    const { res, rows } = await download('?from=2030-07-01&to=2030-07-01');
    expect(rows.map((r) => r['File name'])).toEqual([`'${evil.file}`, `'${evil.crFile}`]);
    expect(rows[0]).toMatchObject({ 'Customer name': evil.name, 'Shipping method': evil.method });
    // On the wire: each such cell is quoted whole, so no spreadsheet splits it at the ';' or the tab.
    expect(res.body).toContain('"Eve;=HYPERLINK(""http://evil.example"",""x"")"');
    expect(res.body).toContain(`"'\t=cmd|' /C calc'!A0.stl"`);
    expect(res.body).toContain(`"'\r@SUM(1+1)*cmd.stl"`);
    expect(res.body).toContain('"<img src=x onerror=alert(1)>;-1"');
    // No line of the body, split at ';' or a tab as such a spreadsheet would, has a cell starting a formula
    // outside quotes.
    for (const line of res.body.split('\r\n')) {
      let quoted = false;
      let start = true;
      for (const c of line) {
        if (c === '"') quoted = !quoted;
        else if (!quoted && (c === ',' || c === ';' || c === '\t')) {
          start = true;
          continue;
        } else if (start && !quoted) expect('=+-@', line).not.toContain(c);
        start = false;
      }
    }
  });

  it('follows the board’s filters and writes every page', async () => {
    const createdAt = new Date('2030-07-01T15:00:00Z');
    const many = CSV_PAGE * 2 + 7;
    const made = await t.database.db
      .insert(orders)
      .values(
        Array.from({ length: many }, () => ({
          userId,
          totalCents: 1200,
          subtotalCents: 1200,
          status: 'queued',
          createdAt,
        })),
      )
      .returning({ id: orders.id });
    await t.database.db.insert(orderItems).values(
      made.map((o) => ({
        orderId: o.id,
        fileName: `part-${o.id}.stl`,
        color: '#007bff',
        strength: 3,
        quantity: 1,
        unitPriceCents: 1200,
        lineTotalCents: 1200,
      })),
    );
    await insertOrder(t.database.db, userId, { status: 'paid', createdAt });
    const { rows } = await download('?from=2030-07-01&to=2030-07-01&status=queued&page=3&pageSize=5');
    expect(rows).toHaveLength(many);
    expect(rows.map((r) => Number(r.Order))).toEqual(made.map((o) => o.id).sort((a, b) => b - a));
    const one = await download(`?q=part-${made[5]!.id}.stl`);
    expect(one.rows.map((r) => Number(r.Order))).toEqual([made[5]!.id]);
  });

  it('refuses a bad date with 400', async () => {
    const res = await adminGet(t, '/api/admin/orders.csv?from=2030-02-31', cookie);
    expect(res.statusCode).toBe(400);
  });
});
