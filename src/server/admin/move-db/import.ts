import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import pg from 'pg';
import { openPostgres } from '../../db/client.ts';
import {
  COLUMNS_SQL,
  codeMigration,
  columnsByTable,
  type ExportHeader,
  type ExportTrailer,
  FORMAT,
  FORMAT_VERSION,
  LAST_MIGRATION_SQL,
  MoveDbError,
  migrationOfTime,
  quoteIdent,
  schemaDifference,
  type TableSpec,
  TEXT_SETTINGS,
  tablesInForeignKeyOrder,
} from './format.ts';

/** PostgreSQL takes at most 65535 parameters a statement. */
const MAX_PARAMS = 60_000;

export type ImportResult = { header: ExportHeader; rows: number };

/** The file's lines one by one; any read or gunzip failure becomes one clear "damaged" error. */
class LineReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly decoder = new StringDecoder('utf8');
  private buffered = '';
  private done = false;

  constructor(readonly file: string) {
    const gunzip = pipeline(fs.createReadStream(file), zlib.createGunzip(), () => {});
    this.chunks = gunzip[Symbol.asyncIterator]();
  }

  damaged(reason: string): MoveDbError {
    return new MoveDbError(
      `The export file ${this.file} is damaged or incomplete (${reason}): nothing was imported.`,
    );
  }

  /** The next whole line (without its newline), or null at the end of the file. */
  async next(): Promise<string | null> {
    for (;;) {
      const end = this.buffered.indexOf('\n');
      if (end !== -1) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 1);
        return line;
      }
      if (this.done) {
        if (this.buffered !== '') throw this.damaged('its last line is cut short');
        return null;
      }
      let chunk: IteratorResult<Buffer>;
      try {
        chunk = await this.chunks.next();
      } catch (err) {
        throw this.damaged(err instanceof Error ? err.message : String(err));
      }
      if (chunk.done) {
        this.buffered += this.decoder.end();
        this.done = true;
      } else {
        this.buffered += this.decoder.write(chunk.value);
      }
    }
  }

  async close(): Promise<void> {
    await this.chunks.return?.();
  }
}

function parseJson(reader: LineReader, line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw reader.damaged(`${what} is not JSON`);
  }
}

function checkHeader(reader: LineReader, value: unknown): ExportHeader {
  const header = value as Partial<ExportHeader> | null;
  if (!header || typeof header !== 'object' || header.format !== FORMAT) {
    throw new MoveDbError(
      `${reader.file} is not a database export of this shop (npm run admin -- export-db).`,
    );
  }
  if (header.version !== FORMAT_VERSION) {
    throw new MoveDbError(
      `The export file is in format version ${header.version}; this version of the shop reads version ${FORMAT_VERSION}.`,
    );
  }
  if (
    !header.migration ||
    !Array.isArray(header.tables) ||
    !Array.isArray(header.sequences) ||
    !Array.isArray(header.installSecrets) ||
    !header.sequences.every((s) => /^-?\d{1,19}$/.test(String(s?.lastValue)))
  ) {
    throw reader.damaged('its header is incomplete');
  }
  return header as ExportHeader;
}

function sameTables(expected: TableSpec[], header: ExportHeader): boolean {
  return (
    expected.length === header.tables.length &&
    expected.every(
      (t, i) =>
        header.tables[i]?.name === t.name &&
        header.tables[i]?.columns.length === t.columns.length &&
        t.columns.every((c, j) => header.tables[i]?.columns[j] === c),
    )
  );
}

/** What a read of the file does with each row: nothing (the check before the import), or insert it. */
type RowSink = {
  row(table: TableSpec, cells: (string | null)[]): Promise<void>;
  tableEnd(table: TableSpec): Promise<void>;
};

/**
 * Reads an export through, checking its header against this version, every row's shape, the row counts and
 * the checksum; hands each row to `sink`. Any fault is a MoveDbError.
 */
async function readExport(file: string, sink?: RowSink): Promise<ImportResult> {
  const reader = new LineReader(file);
  try {
    const first = await reader.next();
    if (first === null) throw reader.damaged('it is empty');
    const header = checkHeader(reader, parseJson(reader, first, 'its header'));
    const code = codeMigration();
    if (header.migration.tag !== code.tag || header.migration.when !== code.when) {
      throw new MoveDbError(
        `The export file was made at migration ${header.migration.tag}, this version of the shop is at ${code.tag}. ` +
          'Export again with this version (start it once on the old data directory to migrate it, stop it, then export-db). Nothing was imported.',
      );
    }
    const tables = tablesInForeignKeyOrder();
    if (!sameTables(tables, header)) {
      throw new MoveDbError(
        "The export file's tables differ from this version's although its migration is the same. Nothing was imported.",
      );
    }
    const hash = createHash('sha256');
    hash.update(`${first}\n`);
    let index = 0;
    let seen = 0;
    let total = 0;
    const finishTable = async () => {
      const table = tables[index];
      const expected = header.tables[index]?.rows;
      if (seen !== expected)
        throw reader.damaged(`${table?.name} has ${seen} rows, its header says ${expected}`);
      if (table) await sink?.tableEnd(table);
      index++;
      seen = 0;
    };
    for (;;) {
      const line = await reader.next();
      if (line === null) throw reader.damaged('it ends before its last line');
      const value = parseJson(reader, line, `line ${total + 2}`);
      if (!Array.isArray(value)) {
        const trailer = value as Partial<ExportTrailer> | null;
        if (trailer?.end !== true) throw reader.damaged(`line ${total + 2} is not a row`);
        if (trailer.rows !== total || trailer.sha256 !== hash.digest('hex')) {
          throw reader.damaged('its checksum does not match its contents');
        }
        while (index < tables.length) await finishTable();
        if ((await reader.next()) !== null) throw reader.damaged('there is more after its last line');
        return { header, rows: total };
      }
      hash.update(`${line}\n`);
      const [name, ...cells] = value as unknown[];
      while (index < tables.length && tables[index]?.name !== name) await finishTable();
      const table = tables[index];
      if (!table) throw reader.damaged(`line ${total + 2} names an unknown table or is out of order`);
      if (cells.length !== table.columns.length || !cells.every((c) => c === null || typeof c === 'string')) {
        throw reader.damaged(`line ${total + 2} is not a row of ${table.name}`);
      }
      await sink?.row(table, cells as (string | null)[]);
      seen++;
      total++;
    }
  } finally {
    await reader.close();
  }
}

/**
 * Loads an export (export.ts) into the PostgreSQL at `databaseUrl`. The whole file is checked first; then the
 * target is migrated if it is new, refused unless it is at the file's migration and empty, and every row is
 * inserted and every sequence set in ONE transaction. A refusal or failure leaves the target as it was (at
 * most migrated, when it was new).
 */
export async function importDatabase(options: { file: string; databaseUrl: string }): Promise<ImportResult> {
  if (!fs.existsSync(options.file)) throw new MoveDbError(`There is no file ${options.file}.`);
  const magic = Buffer.alloc(2);
  const fd = fs.openSync(options.file, 'r');
  const got = fs.readSync(fd, magic, 0, 2, 0);
  fs.closeSync(fd);
  if (got < 2 || magic[0] !== 0x1f || magic[1] !== 0x8b) {
    throw new MoveDbError(
      `${options.file} is not a database export of this shop (npm run admin -- export-db).`,
    );
  }
  const { header } = await readExport(options.file);

  const tables = tablesInForeignKeyOrder();
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    // Before migrating: an old shop's database is refused as it is, not migrated first.
    await refuseNonEmpty(client, tables);
    // Creates the tables in a new database (what the shop does when it starts); a migrated one is left as is.
    await (await openPostgres(options.databaseUrl)).close();
    for (const statement of TEXT_SETTINGS) await client.query(statement);
    await client.query('begin');
    await checkTarget(client, header, tables);
    const result = await readExport(options.file, inserter(client));
    await setSequences(client, header, tables);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** At the file's migration, this version's tables, locked against a shop started meanwhile, and empty. */
async function checkTarget(client: pg.Client, header: ExportHeader, tables: TableSpec[]): Promise<void> {
  const last = (await client.query<{ when: string | null }>(LAST_MIGRATION_SQL)).rows[0]?.when;
  const target = migrationOfTime(last ? Number(last) : null);
  if (target?.when !== header.migration.when) {
    throw new MoveDbError(
      `The target database is at migration ${target?.tag ?? 'none'}, the export file at ${header.migration.tag}: ` +
        'import into a new, empty database. Nothing was imported.',
    );
  }
  const difference = schemaDifference(
    tables,
    columnsByTable((await client.query<{ table: string; column: string }>(COLUMNS_SQL)).rows),
    'The target database',
  );
  if (difference) throw new MoveDbError(`${difference} Nothing was imported.`);
  await client.query(
    `lock table ${tables.map((t) => quoteIdent(t.name)).join(', ')} in access exclusive mode`,
  );
  await refuseNonEmpty(client, tables);
}

/** Refuses a target holding any row in a table of the shop's (tables it does not have yet count as empty). */
async function refuseNonEmpty(client: pg.Client, tables: TableSpec[]): Promise<void> {
  const nonEmpty: string[] = [];
  for (const table of tables) {
    const exists = await client.query<{ found: boolean }>('select to_regclass($1) is not null as found', [
      `public.${quoteIdent(table.name)}`,
    ]);
    if (!exists.rows[0]?.found) continue;
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from ${quoteIdent(table.name)}`,
    );
    if ((rows[0]?.n ?? 0) > 0) nonEmpty.push(`${table.name}: ${rows[0]?.n}`);
  }
  if (nonEmpty.length > 0) {
    throw new MoveDbError(
      `The target database is not empty (rows in ${nonEmpty.join(', ')}): import into a new, empty database ` +
        '(create it, point DATABASE_URL at it, and do not start the shop on it before the import). Nothing was imported.',
    );
  }
}

/** Multi-row INSERTs of text values: PostgreSQL reads each with its column's own input function. */
function inserter(client: pg.Client): RowSink {
  let batch: (string | null)[] = [];
  let rows = 0;
  const flush = async (table: TableSpec) => {
    if (rows === 0) return;
    const width = table.columns.length;
    const values: string[] = [];
    for (let r = 0; r < rows; r++) {
      values.push(`(${table.columns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`);
    }
    try {
      await client.query(
        `insert into ${quoteIdent(table.name)} (${table.columns.map(quoteIdent).join(', ')}) values ${values.join(', ')}`,
        batch,
      );
    } catch (err) {
      throw new MoveDbError(
        `A row of ${table.name} in the export file could not be stored (${(err as Error).message}). Nothing was imported.`,
      );
    }
    batch = [];
    rows = 0;
  };
  return {
    async row(table, cells) {
      batch.push(...cells);
      rows++;
      if ((rows + 1) * table.columns.length > MAX_PARAMS || rows >= 1000) await flush(table);
    },
    tableEnd: flush,
  };
}

/** Each serial continues where the source's did (or after the largest id, whichever is further). */
async function setSequences(client: pg.Client, header: ExportHeader, tables: TableSpec[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns) {
      const { rows } = await client.query<{ seq: string | null }>(
        'select pg_get_serial_sequence($1, $2) as seq',
        [quoteIdent(table.name), column],
      );
      const seq = rows[0]?.seq;
      if (!seq) continue;
      const max = (
        await client.query<{ max: string | null }>(
          `select max(${quoteIdent(column)})::text as max from ${quoteIdent(table.name)}`,
        )
      ).rows[0]?.max;
      const state = header.sequences.find((s) => s.table === table.name && s.column === column);
      let value = state ? BigInt(state.lastValue) : 1n;
      let called = state ? state.isCalled : false;
      if (max !== null && max !== undefined && BigInt(max) >= value) {
        value = BigInt(max);
        called = true;
      }
      await client.query('select setval($1::regclass, $2::bigint, $3)', [seq, value.toString(), called]);
    }
  }
}
