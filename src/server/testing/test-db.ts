import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { withDatabase } from './database-url.ts';

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/** A new database cloned from the run's migrated template (PostgreSQL runs only), and a way to drop it. */
export async function createScratchDatabase(
  templateUrl: string,
  prefix = 'shop_t_',
): Promise<ScratchDatabase> {
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const template = new URL(templateUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: templateUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  return {
    name,
    url: withDatabase(templateUrl, name),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: templateUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A fresh, migrated database of its own for one test file, cloned from the run's snapshot. */
export async function openTestDatabase(): Promise<Database> {
  const templateUrl = inject('pgTemplateUrl');
  if (templateUrl) {
    const scratch = await createScratchDatabase(templateUrl);
    const database = await openPostgres(scratch.url, { migrate: false });
    return {
      ...database,
      close: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  return openPglite({ loadDataDir: new Blob([snapshot]), migrate: false });
}
