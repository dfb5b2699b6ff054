import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { TestApp } from '../testing/test-app.ts';

// "Nothing changed", as broadly as it can be said: every table of the database (found in the database, so a
// table added later is included), each as its row count and a hash of its rows, and every file under the
// data directory (uploads, previews, the mail outbox) with a hash of its bytes.

type Rows = { rows: Record<string, unknown>[] };

async function query(db: Db, text: ReturnType<typeof sql.raw>): Promise<Record<string, unknown>[]> {
  return ((await db.execute(text)) as unknown as Rows).rows;
}

export async function tableNames(db: Db): Promise<string[]> {
  const rows = await query(
    db,
    sql.raw(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    ),
  );
  return rows.map((r) => String(r.name));
}

function hashFile(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Each table as `rows:hash` of its rows' text form (order-independent), and each data file's hash. */
export async function snapshotEverything(t: TestApp): Promise<Record<string, string>> {
  const db = t.database.db;
  const out: Record<string, string> = {};
  for (const name of await tableNames(db)) {
    const rows = await query(db, sql.raw(`select t::text as r from "${name}" t`));
    const texts = rows.map((r) => String(r.r)).sort();
    out[`table ${name}`] = `${texts.length}:${createHash('sha256').update(texts.join('\n')).digest('hex')}`;
  }
  if (fs.existsSync(t.dataDir)) {
    const entries = fs.readdirSync(t.dataDir, { recursive: true, withFileTypes: true });
    for (const e of entries.filter((x) => x.isFile())) {
      const file = path.join(e.parentPath, e.name);
      out[`file ${path.relative(t.dataDir, file)}`] = hashFile(file);
    }
  }
  return out;
}
