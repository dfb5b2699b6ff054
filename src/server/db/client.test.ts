import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from './client.ts';

describe('the embedded database (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite({ migrate: false });
  });
  afterAll(() => database.close());

  it('lets the event loop turn between the queries of requests that arrive together', async () => {
    const order: string[] = [];
    const queries = Array.from({ length: 20 }, (_, k) =>
      database.db.execute(sql`select ${k}::int as k`).then((result) => {
        order.push(`query ${(result as unknown as { rows: { k: number }[] }).rows[0]!.k}`);
      }),
    );
    setImmediate(() => order.push('turn'));
    setTimeout(() => order.push('timer'), 0);
    await Promise.all(queries);
    // They all ran, in the order asked; the event loop turned before the second, and ran a timer before the last
    // (before the change, all twenty ran in one turn: both came after them).
    const asked = Array.from({ length: 20 }, (_, k) => `query ${k}`);
    expect(order.filter((o) => o.startsWith('query'))).toEqual(asked);
    expect(order.indexOf('turn')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('turn')).toBeLessThan(order.indexOf('query 1'));
    expect(order.indexOf('timer')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('timer')).toBeLessThan(order.indexOf('query 19'));
  });

  it('still runs a transaction whole, and a query asked for meanwhile after it', async () => {
    const order: string[] = [];
    const tx = database.db.transaction(async (t) => {
      await t.execute(sql`select 1`);
      order.push('transaction, first');
      await t.execute(sql`select 2`);
      order.push('transaction, second');
    });
    const other = database.db.execute(sql`select 3`).then(() => order.push('other'));
    await Promise.all([tx, other]);
    expect(order).toEqual(['transaction, first', 'transaction, second', 'other']);
  });
});
