import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';

/** What every service needs, passed explicitly so services are tested without HTTP. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  /** The current time; tests move it forward to expire tokens and sessions. */
  now: () => Date;
  /**
   * Wakes the outbox worker: call `ctx.outbox?.poke()` after committing a transaction that queued mail
   * (jobs/outbox-repository.ts enqueueMail). Absent in contexts built by hand (tests, CLI): the worker's
   * one-second poll sends the mail anyway.
   */
  outbox?: { poke(): void };
};
