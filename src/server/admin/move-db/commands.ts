import path from 'node:path';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/open.ts';
import { openFileStore } from '../../storage/open-file-store.ts';
import { copyModelFiles, describeCopy } from './copy-files.ts';
import { exportEmbeddedDatabase } from './export.ts';
import { formatCounts, MoveDbError } from './format.ts';
import { importDatabase } from './import.ts';

// The admin CLI's commands that move a shop from the embedded default to PostgreSQL (docs/deploy.md).

export const MOVE_COMMANDS = ['export-db', 'import-db', 'copy-files'];

export const MOVE_USAGE = `  npm run admin -- export-db <file>
      Writes every row of the embedded database (DATA_DIR/db) to a new file. Stop the shop first.
  npm run admin -- import-db <file> [--files <dir>]
      Loads such a file into the new, empty PostgreSQL database of DATABASE_URL (one transaction), then
      copies the model files from <dir> (default DATA_DIR/files) to the configured store (S3_BUCKET or
      DATA_DIR/files) and checks that every model's files are there.
  npm run admin -- copy-files [--from <dir>]
      The file copy alone, again: copies only what the store lacks (default <dir>: DATA_DIR/files).`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Io = { out(line: string): void; err(line: string): void };
type MoveConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'filesDir' | 's3'>;

/** `--name value` taken out of args; undefined when absent, an error when it has no value. */
function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined) throw new MoveDbError(`${name} needs a value.`);
  args.splice(at, 2);
  return value;
}

async function copyFiles(config: MoveConfig, from: string, io: Io): Promise<number> {
  const database = await openDatabase(config);
  const store = await openFileStore(config);
  try {
    const result = await copyModelFiles(database.db, from, store.store);
    for (const line of describeCopy(result)) (result.missing.length > 0 ? io.err : io.out)(line);
    if (result.missing.length > 0) {
      io.err(`Put them in ${from} and run: npm run admin -- copy-files --from ${from}`);
      return 1;
    }
    return 0;
  } finally {
    store.close();
    await database.close();
  }
}

/** Runs export-db, import-db or copy-files; returns the exit code. */
export async function runMoveCommand(
  config: MoveConfig,
  argv: string[],
  io: Io,
  usage: string,
): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'export-db') {
      const [file, ...extra] = args;
      if (!file || extra.length > 0) {
        io.err(usage);
        return 2;
      }
      const { header, rows, bytes } = await exportEmbeddedDatabase({ dataDir: config.dataDir, file });
      io.out(
        `Exported ${plural(rows, 'row')} of ${header.tables.length} tables (${formatCounts(header.tables)}) at migration ${header.migration.tag} to ${file} (${bytes} bytes).`,
      );
      io.out(
        'The file holds password hashes and the install secrets: keep it private, and delete it once the shop runs on PostgreSQL.',
      );
      return 0;
    }
    if (command === 'import-db') {
      const from = takeOption(args, '--files') ?? config.filesDir;
      const [file, ...extra] = args;
      if (!file || extra.length > 0) {
        io.err(usage);
        return 2;
      }
      if (!config.databaseUrl) {
        throw new MoveDbError(
          'import-db loads into PostgreSQL: set DATABASE_URL to the new, empty database.',
        );
      }
      const { header, rows } = await importDatabase({ file, databaseUrl: config.databaseUrl });
      io.out(
        `Imported ${plural(rows, 'row')} of ${header.tables.length} tables (${formatCounts(header.tables)}) at migration ${header.migration.tag}.`,
      );
      return await copyFiles(config, path.resolve(from), io);
    }
    if (command === 'copy-files') {
      const from = takeOption(args, '--from') ?? config.filesDir;
      if (args.length > 0) {
        io.err(usage);
        return 2;
      }
      return await copyFiles(config, path.resolve(from), io);
    }
  } catch (err) {
    if (err instanceof MoveDbError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
  io.err(usage);
  return 2;
}
