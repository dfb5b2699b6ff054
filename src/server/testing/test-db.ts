import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { withDatabase } from './database-url.ts';

/** A fresh, migrated database of its own for one test file, cloned from the run's snapshot. */
export async function openTestDatabase(): Promise<Database> {
  const templateUrl = inject('pgTemplateUrl');
  if (templateUrl) {
    const name = `shop_t_${randomBytes(6).toString('hex')}`;
    const template = new URL(templateUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: templateUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const database = await openPostgres(withDatabase(templateUrl, name), { migrate: false });
    return {
      ...database,
      close: async () => {
        await database.close();
        const dropper = new pg.Client({ connectionString: templateUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  return openPglite({ loadDataDir: new Blob([snapshot]), migrate: false });
}
