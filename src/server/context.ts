import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';

/** What every service needs, passed explicitly so services are tested without HTTP. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  /** The current time; tests move it forward to expire tokens and sessions. */
  now: () => Date;
};
