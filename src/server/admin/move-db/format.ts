import fs from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { migrationsFolder } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

// The export file (docs/deploy.md, "Moving from the embedded default to PostgreSQL"): gzip of JSON lines.
// Line 1 the header; then one line per row, `[table, value...]`, every value in PostgreSQL's own text form
// (or null), tables in foreign-key order; last the trailer with the SHA-256 of every line before it.

export const FORMAT = 'printshop-db-export';
export const FORMAT_VERSION = 1;

/** A refusal or failure with a message for the operator (the CLI prints it as it is). */
export class MoveDbError extends Error {}

export type TableSpec = { name: string; columns: string[]; primaryKey: string[] };

export type SequenceState = { table: string; column: string; lastValue: string; isCalled: boolean };

export type ExportHeader = {
  format: typeof FORMAT;
  version: number;
  /** The last migration applied to the exported database (its journal tag and time). */
  migration: { tag: string; when: number };
  exportedAt: string;
  tables: { name: string; columns: string[]; rows: number }[];
  sequences: SequenceState[];
  /** The names of the install secrets the file carries (their values are rows of install_secrets). */
  installSecrets: string[];
};

export type ExportTrailer = { end: true; rows: number; sha256: string };

/** Session settings that make every value's text form exact and the same on both sides. */
export const TEXT_SETTINGS = [
  "set timezone = 'UTC'",
  "set datestyle = 'ISO, YMD'",
  "set intervalstyle = 'postgres'",
  "set bytea_output = 'hex'",
  // Shortest text that reads back to the same double (PostgreSQL 12+; all digits before).
  'set extra_float_digits = 3',
];

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Every table of schema.ts, parents before the tables that reference them (by export name otherwise). */
export function tablesInForeignKeyOrder(): TableSpec[] {
  const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
  const byName = new Map(tables.map((t) => [getTableName(t), t]));
  const ordered: TableSpec[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: PgTable) => {
    const name = getTableName(table);
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`foreign keys form a cycle at ${name}`);
    state.set(name, 'visiting');
    const config = getTableConfig(table);
    for (const fk of config.foreignKeys) {
      const parent = getTableName(fk.reference().foreignTable);
      const parentTable = byName.get(parent);
      if (parentTable && parent !== name) visit(parentTable);
    }
    state.set(name, 'done');
    ordered.push({
      name,
      columns: config.columns.map((c) => c.name),
      primaryKey: [
        ...config.columns.filter((c) => c.primary).map((c) => c.name),
        ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)),
      ],
    });
  };
  for (const table of tables) visit(table);
  return ordered;
}

type JournalEntry = { idx: number; when: number; tag: string };

export function readJournal(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  return (journal.entries as JournalEntry[]).toSorted((a, b) => a.idx - b.idx);
}

/** The migration this version of the shop migrates to. */
export function codeMigration(): { tag: string; when: number } {
  const last = readJournal().at(-1);
  if (!last) throw new Error('the migration journal is empty');
  return { tag: last.tag, when: last.when };
}

/** The journal entry of the newest migration a database applied (drizzle records its time), or null. */
export function migrationOfTime(when: number | null): { tag: string; when: number } | null {
  if (when === null) return null;
  const entry = readJournal().find((e) => e.when === when);
  return { tag: entry?.tag ?? `an unknown migration (${when})`, when };
}

/** The query reading the newest applied migration's time; null when drizzle never migrated it. */
export const LAST_MIGRATION_SQL = `select (select max(created_at) from drizzle.__drizzle_migrations)::text as when`;
export const HAS_MIGRATIONS_SQL = `select to_regclass('drizzle.__drizzle_migrations') is not null as present`;

/** The same tables with the same columns, or a message naming the first difference. */
export function schemaDifference(
  expected: TableSpec[],
  found: Map<string, string[]>,
  where: string,
): string | null {
  for (const table of expected) {
    const columns = found.get(table.name);
    if (!columns) return `${where} has no table ${table.name}.`;
    const missing = table.columns.filter((c) => !columns.includes(c));
    const extra = columns.filter((c) => !table.columns.includes(c));
    if (missing.length > 0 || extra.length > 0) {
      return `${where}'s table ${table.name} differs from this version's (${[
        ...missing.map((c) => `missing ${c}`),
        ...extra.map((c) => `extra ${c}`),
      ].join(', ')}).`;
    }
  }
  const known = new Set(expected.map((t) => t.name));
  const unknown = [...found.keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) return `${where} has tables this version does not know: ${unknown.join(', ')}.`;
  return null;
}

export const COLUMNS_SQL = `select table_name::text as table, column_name::text as column
  from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`;

export function columnsByTable(rows: { table: string; column: string }[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const row of rows) map.set(row.table, [...(map.get(row.table) ?? []), row.column]);
  return map;
}

export function formatCounts(tables: { name: string; rows: number }[]): string {
  return tables.map((t) => `${t.name} ${t.rows}`).join(', ');
}
