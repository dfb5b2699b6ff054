import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../../db/client.ts';
import { DataDirInUseError, lockDataDir } from '../../db/data-dir-lock.ts';
import {
  COLUMNS_SQL,
  columnsByTable,
  type ExportHeader,
  FORMAT,
  FORMAT_VERSION,
  HAS_MIGRATIONS_SQL,
  LAST_MIGRATION_SQL,
  MoveDbError,
  migrationOfTime,
  quoteIdent,
  type SequenceState,
  schemaDifference,
  TEXT_SETTINGS,
  tablesInForeignKeyOrder,
} from './format.ts';

const FETCH_ROWS = 1000;

export type ExportResult = { header: ExportHeader; rows: number; bytes: number };

/**
 * Writes every row of the embedded database in DATA_DIR/db to `file` (a logical export, format.ts). Takes the
 * data directory's lock first, so the shop must be stopped; the database is opened without migrating it.
 */
export async function exportEmbeddedDatabase(options: {
  dataDir: string;
  file: string;
  now?: Date;
}): Promise<ExportResult> {
  const dbDir = path.join(options.dataDir, 'db');
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) {
    throw new MoveDbError(
      `There is no embedded database in ${dbDir}: set DATA_DIR to the data directory of the shop to move.`,
    );
  }
  if (fs.existsSync(options.file)) {
    throw new MoveDbError(`${options.file} already exists: name a new file (nothing was written).`);
  }
  let lock: { release(): void };
  try {
    lock = lockDataDir(options.dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      throw new MoveDbError(`Stop the shop before exporting its database. ${err.message}`);
    }
    throw err;
  }
  try {
    const database = await openPglite({ dataDir: dbDir, migrate: false });
    try {
      return await writeExport(database.pglite, options.file, options.now ?? new Date());
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

async function writeExport(pglite: PGlite, file: string, now: Date): Promise<ExportResult> {
  const tables = tablesInForeignKeyOrder();
  for (const statement of TEXT_SETTINGS) await pglite.exec(statement);
  const present = await pglite.query<{ present: boolean }>(HAS_MIGRATIONS_SQL);
  const last = present.rows[0]?.present
    ? (await pglite.query<{ when: string | null }>(LAST_MIGRATION_SQL)).rows[0]?.when
    : null;
  const migration = migrationOfTime(last ? Number(last) : null);
  if (!migration)
    throw new MoveDbError('The embedded database was never migrated: there is no shop to export.');
  const difference = schemaDifference(
    tables,
    columnsByTable((await pglite.query<{ table: string; column: string }>(COLUMNS_SQL)).rows),
    'The embedded database',
  );
  if (difference) throw new MoveDbError(`${difference} Start the shop once with this version, then export.`);

  const part = `${file}.${process.pid}.part`;
  const out = fs.createWriteStream(part, { flags: 'wx', mode: 0o600 });
  const gzip = zlib.createGzip();
  // Settles when the file is written and closed, or fails with the first error of either stream (a full
  // disk): every wait below races it, so a failed write ends the export with its error, not a crash.
  const piped = pipeline(gzip, out);
  piped.catch(() => {}); // awaited below; failing before that is handled there too
  const hash = createHash('sha256');
  let written = 0;
  const writeLine = async (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    hash.update(line);
    if (!gzip.write(line)) await Promise.race([once(gzip, 'drain'), piped]);
  };
  try {
    // One snapshot for the counts and the rows (nothing else can write: the lock is ours).
    const header = await pglite.transaction(async (tx) => {
      await tx.exec('set transaction isolation level repeatable read');
      const counted = [];
      for (const table of tables) {
        const { rows } = await tx.query<{ n: number }>(
          `select count(*)::int as n from ${quoteIdent(table.name)}`,
        );
        counted.push({ name: table.name, columns: table.columns, rows: rows[0]?.n ?? 0 });
      }
      const sequences: SequenceState[] = [];
      for (const table of tables) {
        for (const column of table.columns) {
          const { rows } = await tx.query<{ seq: string | null }>(
            'select pg_get_serial_sequence($1, $2) as seq',
            [quoteIdent(table.name), column],
          );
          const seq = rows[0]?.seq;
          if (!seq) continue;
          const state = await tx.query<{ last: string; called: boolean }>(
            `select last_value::text as last, is_called as called from ${seq}`,
          );
          const row = state.rows[0];
          if (row) sequences.push({ table: table.name, column, lastValue: row.last, isCalled: row.called });
        }
      }
      const secrets = await tx.query<{ name: string }>('select name from install_secrets order by name');
      const header: ExportHeader = {
        format: FORMAT,
        version: FORMAT_VERSION,
        migration,
        exportedAt: now.toISOString(),
        tables: counted,
        sequences,
        installSecrets: secrets.rows.map((r) => r.name),
      };
      await writeLine(header);
      for (const table of tables) {
        const order =
          table.primaryKey.length > 0
            ? table.primaryKey.map(quoteIdent)
            : table.columns.map((_, i) => String(i + 1));
        await tx.exec(
          `declare export_rows no scroll cursor for select ${table.columns
            .map((c) => `${quoteIdent(c)}::text`)
            .join(', ')} from ${quoteIdent(table.name)} order by ${order.join(', ')}`,
        );
        for (;;) {
          const { rows } = await tx.query<(string | null)[]>(`fetch ${FETCH_ROWS} from export_rows`, [], {
            rowMode: 'array',
          });
          for (const row of rows) {
            await writeLine([table.name, ...row]);
            written++;
          }
          if (rows.length < FETCH_ROWS) break;
        }
        await tx.exec('close export_rows');
      }
      return header;
    });
    const expected = header.tables.reduce((sum, t) => sum + t.rows, 0);
    if (written !== expected) throw new Error(`read ${written} rows, counted ${expected}`);
    const trailer = { end: true, rows: written, sha256: hash.copy().digest('hex') };
    gzip.end(`${JSON.stringify(trailer)}\n`);
    await piped;
    // A link, not a rename: never replaces a file that appeared meanwhile.
    fs.linkSync(part, file);
    fs.rmSync(part);
    return { header, rows: written, bytes: fs.statSync(file).size };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(part, { force: true });
    throw err;
  }
}
