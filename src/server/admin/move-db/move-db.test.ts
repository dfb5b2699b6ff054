import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeAdmin } from '../../admin/orders/testing.ts';
import { buildApp } from '../../app.ts';
import { createLoggedInUser, createUser, loginAs, postJson } from '../../auth/testing.ts';
import { cartItem, paySimulator, startCheckout, uploadBox } from '../../checkout/testing.ts';
import { loadConfig } from '../../config.ts';
import { openPglite } from '../../db/client.ts';
import { openDatabase } from '../../db/open.ts';
import { readOutboxDir } from '../../mail/testing.ts';
import { S3FileStore, type S3Settings } from '../../storage/s3-file-store.ts';
import { withDatabase } from '../../testing/database-url.ts';
import { TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { paidOrder } from '../orders/testing.ts';
import { runMoveCommand } from './commands.ts';
import { exportEmbeddedDatabase } from './export.ts';
import { readJournal } from './format.ts';
import { importDatabase } from './import.ts';

// Moves a shop built through the real routes on PGlite (DATA_DIR/db) to a fresh PostgreSQL database and an
// S3 bucket with the admin commands, then compares every table and runs the shop on the result.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-move-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

/** The shop on the database and store its configuration names (PGlite in dataDir without DATABASE_URL). */
async function openShop(dataDir: string, env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    RATE_LIMIT_SCALE: '100',
    ...env,
  });
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    advance: () => {
      throw new Error('no clock here');
    },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A migrated, empty embedded database in a new data directory. */
async function emptyDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(root, 'data-'));
  await (await openPglite({ dataDir: path.join(dataDir, 'db') })).close();
  return dataDir;
}

describe('export-db refuses', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await emptyDataDir();
  });

  it('while another live process holds the data directory, writing nothing', async () => {
    // The parent process is alive and is not us: the lock is someone else's.
    fs.writeFileSync(path.join(dataDir, '.lock'), String(process.ppid));
    const file = path.join(root, 'locked.jsonl.gz');
    const { err, io } = captureIo();
    const config = loadConfig({ DATA_DIR: dataDir }, { payments: false });
    expect(await runMoveCommand(config, ['export-db', file], io, 'usage')).toBe(1);
    expect(err.join('\n')).toMatch(
      /^Stop the shop before exporting its database\. The data directory .* is in use by another process \(pid \d+\)/,
    );
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(root).filter((f) => f.startsWith('locked'))).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, '.lock'), 'utf8')).toBe(String(process.ppid));
    fs.rmSync(path.join(dataDir, '.lock'));
  });

  it('a directory without an embedded database, and a file that exists', async () => {
    const nothing = fs.mkdtempSync(path.join(root, 'none-'));
    await expect(exportEmbeddedDatabase({ dataDir: nothing, file: path.join(root, 'x.gz') })).rejects.toThrow(
      `There is no embedded database in ${path.join(nothing, 'db')}`,
    );
    // It did not make one either.
    expect(fs.readdirSync(nothing)).toEqual([]);
    const taken = path.join(root, 'taken.gz');
    fs.writeFileSync(taken, 'keep me');
    await expect(exportEmbeddedDatabase({ dataDir, file: taken })).rejects.toThrow(
      `${taken} already exists: name a new file`,
    );
    expect(fs.readFileSync(taken, 'utf8')).toBe('keep me');
  });

  it('import-db without DATABASE_URL, and bad command lines', async () => {
    const { err, io } = captureIo();
    const config = loadConfig({ DATA_DIR: root }, { payments: false });
    expect(await runMoveCommand(config, ['import-db', path.join(root, 'a.gz')], io, 'usage')).toBe(1);
    expect(err).toEqual(['import-db loads into PostgreSQL: set DATABASE_URL to the new, empty database.']);
    expect(await runMoveCommand(config, ['export-db'], io, 'usage')).toBe(2);
    expect(await runMoveCommand(config, ['import-db', 'a', 'b'], io, 'usage')).toBe(2);
    expect(await runMoveCommand(config, ['copy-files', '--from'], io, 'usage')).toBe(1);
    expect(err.slice(1)).toEqual(['usage', 'usage', '--from needs a value.']);
  });
});

const templateUrl = inject('pgTemplateUrl');
const onPostgres = { skip: !templateUrl, meta: { skipReason: 'PostgreSQL only: set DATABASE_URL' } };

describe('moving a shop from the embedded default to PostgreSQL (PostgreSQL only)', onPostgres, () => {
  const sourceDir = path.join(root, 'old-shop');
  const targetDir = path.join(root, 'new-shop');
  const file = path.join(root, 'shop.jsonl.gz');
  const created: string[] = [];
  let admin: pg.Client;
  let s3: S3rver;
  let s3Settings: S3Settings;
  let s3Env: Record<string, string>;
  let targetUrl: string;
  let customer: { username: string; password: string };
  let pendingMails: number;

  /** A new database on the test server, not migrated. */
  async function freshDatabase(): Promise<string> {
    const name = `shop_move_${randomBytes(5).toString('hex')}`;
    await admin.query(`create database ${name}`);
    created.push(name);
    return withDatabase(templateUrl, name);
  }

  async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("set timezone = 'UTC'");
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  /** Every table's rows as PostgreSQL writes them (microseconds, exact numbers, jsonb), sorted. */
  async function dump(run: (sql: string) => Promise<Record<string, unknown>[]>) {
    const tables = (
      await run(`select tablename::text as name from pg_tables where schemaname = 'public' order by 1`)
    ).map((r) => r.name as string);
    const all: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = await run(`select to_jsonb(t)::text as j from "${table}" t order by 1`);
      all[table] = rows.map((r) => r.j as string);
    }
    return all;
  }

  const dumpPostgres = (url: string) => dump((sql) => query(url, sql));

  async function dumpSource() {
    const database = await openPglite({ dataDir: path.join(sourceDir, 'db'), migrate: false });
    try {
      await database.pglite.exec("set timezone = 'UTC'");
      return await dump(async (sql) => (await database.pglite.query<Record<string, unknown>>(sql)).rows);
    } finally {
      await database.close();
    }
  }

  const counts = (all: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(all).map(([table, rows]) => [table, rows.length]));

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: templateUrl });
    await admin.connect();
    const s3Dir = fs.mkdtempSync(path.join(root, 's3-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir });
    const { port } = (await s3.run()) as unknown as { port: number };
    s3Settings = {
      bucket: 'moved-files',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: 'printshop/',
    };
    s3Env = {
      S3_BUCKET: s3Settings.bucket,
      S3_ENDPOINT: s3Settings.endpoint!,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3Settings.endpoint!,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: s3Settings.bucket }));
    client.destroy();

    // The old shop, on the embedded default, used through its routes.
    const t = await openShop(sourceDir);
    try {
      const boss = await makeAdmin(t, 'boss');
      const ada = await createLoggedInUser(t, { username: 'ada', password: 'analytical engine 1843' });
      customer = { username: 'ada', password: 'analytical engine 1843' };
      const grace = await createLoggedInUser(t, { username: 'grace' });
      const asCustomer = (u: typeof ada) => ({ id: u.user.id, cookie: u.cookie });
      const small = await uploadBox(t, asCustomer(ada), 20);
      const large = await uploadBox(t, asCustomer(ada), 30);
      const other = await uploadBox(t, asCustomer(grace), 15);
      const scaled = await postJson(
        t,
        `/api/models/${small}/scale`,
        { factor: 25.4 },
        { cookie: ada.cookie },
      );
      expect(scaled.statusCode, scaled.body).toBe(201);

      const shipped = await paidOrder(t, asCustomer(ada), small);
      const refunded = await paidOrder(t, asCustomer(ada), large, { quantity: 2 });
      const cancelled = await paidOrder(t, asCustomer(grace), other);
      const pending = await startCheckout(t, asCustomer(grace), [cartItem(other)]);
      expect(pending.statusCode, pending.body).toBe(200);
      const declined = await startCheckout(t, asCustomer(ada), [cartItem(large)]);
      await paySimulator(t, declined.json().id, {
        number: '4000 0000 0000 0002',
        expiry: '12 / 34',
        cvc: '1',
      });
      const move = (id: number, body: object) =>
        postJson(t, `/api/admin/orders/${id}/${'status' in body ? 'status' : 'refund'}`, body, {
          cookie: boss.cookie,
        });
      for (const body of [
        { status: 'queued' },
        { status: 'printing' },
        { status: 'shipped', carrier: 'usps', trackingNumber: '9400 1000 0000 0000 0000 00' },
      ]) {
        const res = await move(shipped, body);
        expect(res.statusCode, res.body).toBe(200);
      }
      const refund = await move(refunded, { amountCents: 500, reason: 'A scratch on one piece' });
      expect(refund.statusCode, refund.body).toBe(200);
      const cancel = await move(cancelled, { status: 'cancelled', note: 'Out of that colour' });
      expect(cancel.statusCode, cancel.body).toBe(200);
      const settings = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings/shop',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie: boss.cookie },
        payload: JSON.stringify({
          values: { buildVolumeMm: { x: 300, y: 256, z: 250 }, uploadRetentionHours: 24 },
        }),
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const cart = await t.app.inject({
        method: 'PUT',
        url: '/api/cart',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie: ada.cookie },
        payload: JSON.stringify({ items: [cartItem(large)] }),
      });
      expect(cart.statusCode, cart.body).toBe(200);
      // Some mail sent, then one more queued and left in the outbox.
      expect((await t.app.outbox.drain()).sent).toBeGreaterThan(0);
      const contact = await postJson(t, '/api/send_contact_email.php', {
        name: 'Zoë Ünicode ✓',
        email: 'zoe@example.com',
        message: 'Can you print in 🟣 purple?\nThanks — Zoë',
      });
      expect(contact.statusCode, contact.body).toBe(200);
      // Values at the edges of their types, straight in the database.
      await t.database.db.execute(
        sql.raw(`update models set size_bytes = 9007199254740993, scale = 0.30000000000000004,
        warnings = '["ünï ✓ 🎉", "a \\"quote\\" and a back\\\\slash", {"n": 1e-7, "big": 123456789012345678901234567890}]'
        where id = '${small}'`),
      );
      await t.database.db.execute(
        sql.raw(
          `update users set email_verified_at = '2026-01-02 03:04:05.123457+00' where username = 'boss'`,
        ),
      );
    } finally {
      await t.close();
    }

    const { out, err, io } = captureIo();
    const config = loadConfig({ DATA_DIR: sourceDir }, { payments: false });
    expect(await runMoveCommand(config, ['export-db', file], io, 'usage'), err.join('\n')).toBe(0);
    expect(out[0]).toMatch(/^Exported \d+ rows of \d+ tables \(users 3, .*\) at migration \d{4}_\w+ to /);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  }, 120_000);

  afterAll(async () => {
    for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
    await s3?.close();
  });

  it('imports every row of every table, value for value, and copies the model files to the bucket', async () => {
    targetUrl = await freshDatabase();
    const { out, err, io } = captureIo();
    const config = loadConfig(
      { DATA_DIR: targetDir, DATABASE_URL: targetUrl, ...s3Env },
      { payments: false },
    );
    const code = await runMoveCommand(
      config,
      ['import-db', file, '--files', path.join(sourceDir, 'files')],
      io,
      'usage',
    );
    expect(code, err.join('\n')).toBe(0);
    const source = await dumpSource();
    const target = await dumpPostgres(targetUrl);
    expect(Object.keys(target)).toEqual(Object.keys(source));
    for (const table of Object.keys(source)) expect(target[table], table).toEqual(source[table]);
    // The shop had all of this (so the comparison above compared something).
    const n = counts(source);
    expect(n).toMatchObject({ users: 3, settings: 1, saved_carts: 1, contact_messages: 1 });
    for (const table of [
      'sessions',
      'models',
      'orders',
      'order_items',
      'order_events',
      'refunds',
      'simulator_sessions',
      'settings_history',
      'install_secrets',
      'outbox',
    ]) {
      expect(n[table], table).toBeGreaterThan(0);
    }
    expect(new Set(source.orders?.map((o) => JSON.parse(o).status))).toEqual(
      new Set(['shipped', 'paid', 'cancelled', 'pending']),
    );
    expect(source.models?.join()).toContain('9007199254740993');
    expect(source.users?.join()).toContain('2026-01-02T03:04:05.123457+00:00');
    pendingMails = source.outbox?.filter((m) => JSON.parse(m).status === 'pending').length ?? 0;
    expect(pendingMails).toBeGreaterThan(0);
    const total = Object.values(n).reduce((a, b) => a + b, 0);
    expect(out[0]).toMatch(
      new RegExp(
        `^Imported ${total} rows of \\d+ tables \\(users 3, .*\\) at migration ${readJournal().at(-1)?.tag}\\.$`,
      ),
    );

    // Every model's file, preview and view is in the bucket, byte for byte.
    const keys = new Set(
      (source.models ?? []).flatMap((m) => {
        const row = JSON.parse(m);
        return [row.storage_key, row.preview_key, row.view_key].filter(Boolean) as string[];
      }),
    );
    expect(keys.size).toBeGreaterThan(3);
    expect(out[1]).toBe(
      `Model files: ${keys.size} named by the models, ${keys.size} copied, 0 already in the store.`,
    );
    const bucket = new S3FileStore(s3Settings);
    try {
      for (const key of keys) {
        const got = await bucket.get(key);
        expect(got, key).not.toBeNull();
        expect(
          (await buffer(got!.stream)).equals(fs.readFileSync(path.join(sourceDir, 'files', key))),
          key,
        ).toBe(true);
      }
    } finally {
      bucket.close();
    }

    // Run again, the copy copies nothing.
    const again = captureIo();
    expect(
      await runMoveCommand(
        config,
        ['copy-files', '--from', path.join(sourceDir, 'files')],
        again.io,
        'usage',
      ),
    ).toBe(0);
    expect(again.out).toEqual([
      `Model files: ${keys.size} named by the models, 0 copied, ${keys.size} already in the store.`,
    ]);

    // Files in neither store are named, model by model, and the command fails.
    const lost = captureIo();
    const elsewhere = loadConfig(
      { DATA_DIR: targetDir, DATABASE_URL: targetUrl, ...s3Env, S3_PREFIX: 'elsewhere/' },
      { payments: false },
    );
    const emptyDir = fs.mkdtempSync(path.join(root, 'empty-files-'));
    expect(await runMoveCommand(elsewhere, ['copy-files', '--from', emptyDir], lost.io, 'usage')).toBe(1);
    expect(lost.err[0]).toBe(
      `Model files: ${keys.size} named by the models, 0 copied, 0 already in the store.`,
    );
    const named = (source.models ?? []).flatMap((m) => {
      const row = JSON.parse(m);
      return [row.storage_key, row.preview_key, row.view_key].filter(Boolean);
    });
    expect(lost.err[1]).toBe(`${named.length} files are in neither store:`);
    const ids = (source.models ?? []).map((m) => JSON.parse(m).id as string);
    const listed = lost.err.filter((l) => l.startsWith('  model '));
    expect(listed).toHaveLength(Math.min(10, named.length));
    for (const line of listed) {
      const [, id, kind, key] = /^ {2}model (\S+): its (file|preview|view) (\S+)$/.exec(line) ?? [];
      expect(ids, line).toContain(id);
      expect(named, line).toContain(key);
      expect(kind).toBeDefined();
    }
    expect(lost.err.at(-1)).toBe(
      `Put them in ${emptyDir} and run: npm run admin -- copy-files --from ${emptyDir}`,
    );
  });

  it('refuses to import into a database that is not empty, changing nothing', async () => {
    const before = await dumpPostgres(targetUrl);
    await expect(importDatabase({ file, databaseUrl: targetUrl })).rejects.toThrow(
      /^The target database is not empty \(rows in users: 3, sessions: \d+, .*\): import into a new, empty database/,
    );
    expect(await dumpPostgres(targetUrl)).toEqual(before);
    // An older shop's database is refused as it is: not migrated first.
    const older = await freshDatabase();
    await query(
      older,
      `create table users (id serial primary key, username text); insert into users (username) values ('x')`,
    );
    await expect(importDatabase({ file, databaseUrl: older })).rejects.toThrow(
      'The target database is not empty (rows in users: 1): import into a new, empty database',
    );
    expect(await query(older, `select to_regclass('drizzle.__drizzle_migrations')::text as r`)).toEqual([
      { r: null },
    ]);
    expect(await query(older, 'select username from users')).toEqual([{ username: 'x' }]);
  });

  it('runs the moved shop: logins, models, new ids after the old ones, the queued mail sent once', async () => {
    const t = await openShop(targetDir, { DATABASE_URL: targetUrl, PAYMENT_PROVIDER: 'simulator', ...s3Env });
    try {
      expect(t.database.kind).toBe('postgres');
      const drained = await t.app.outbox.drain();
      expect(drained).toEqual({ sent: pendingMails, failed: 0 });
      expect(readOutboxDir(path.join(targetDir, 'outbox'))).toHaveLength(pendingMails);
      expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: 0 });
      const mail = readOutboxDir(path.join(targetDir, 'outbox'))[0];
      expect(mail?.text).toContain('Can you print in 🟣 purple?');

      const cookie = await loginAs(t, customer.username, customer.password);
      const orders = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie } });
      expect(orders.statusCode, orders.body).toBe(200);
      expect(orders.body).toContain('9400100000000000000000');
      const mine = await t.app.inject({ url: '/api/models', headers: { cookie } });
      const models = mine.json().models as { id: string }[];
      expect(models.length).toBeGreaterThan(0);
      for (const model of models) {
        const preview = await t.app.inject({
          url: `/api/models/${model.id}/preview.png`,
          headers: { cookie },
        });
        expect(preview.statusCode, model.id).toBe(200);
      }
      const wrong = await postJson(t, '/api/login.php', {
        username: customer.username,
        password: 'not it at all',
      });
      expect(wrong.statusCode).toBe(401);

      const maxOf = async (table: string) =>
        Number((await query<{ m: number }>(targetUrl, `select max(id)::int as m from ${table}`))[0]?.m);
      const oldUser = await maxOf('users');
      const oldMessage = await maxOf('contact_messages');
      const { user } = await createUser(t.database.db);
      expect(user.id).toBeGreaterThan(oldUser);
      const contact = await postJson(t, '/api/send_contact_email.php', {
        name: 'New',
        email: 'new@example.com',
        message: 'After the move',
      });
      expect(contact.statusCode, contact.body).toBe(200);
      expect(await maxOf('contact_messages')).toBe(oldMessage + 1);
    } finally {
      await t.close();
    }
  });

  /** The export rewritten line by line (a change of the header or a row), gzipped again. */
  function rewritten(edit: (lines: string[]) => void): string {
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n');
    edit(lines);
    const out = path.join(root, `edited-${randomBytes(4).toString('hex')}.gz`);
    fs.writeFileSync(out, zlib.gzipSync(lines.join('\n')));
    return out;
  }

  async function tablesOf(url: string) {
    return query<{ name: string }>(
      url,
      `select tablename::text as name from pg_tables where schemaname = 'public'`,
    );
  }

  it('refuses a file of another migration before touching the target', async () => {
    const url = await freshDatabase();
    const older = readJournal().at(-2)!;
    const edited = rewritten((lines) => {
      const header = JSON.parse(lines[0]!);
      header.migration = { tag: older.tag, when: older.when };
      lines[0] = JSON.stringify(header);
    });
    await expect(importDatabase({ file: edited, databaseUrl: url })).rejects.toThrow(
      `The export file was made at migration ${older.tag}, this version of the shop is at ${readJournal().at(-1)?.tag}.`,
    );
    expect(await tablesOf(url)).toEqual([]);
  });

  it('rolls back every row when one cannot be stored midway (one transaction)', async () => {
    const url = await freshDatabase();
    // A well-formed file with a right checksum whose model row PostgreSQL refuses: users went in before it.
    const edited = rewritten((lines) => {
      const at = lines.findIndex((l) => l.startsWith('["models",'));
      const row = JSON.parse(lines[at]!);
      row[7] = 'a lot';
      lines[at] = JSON.stringify(row);
      const trailer = JSON.parse(lines.at(-2)!);
      const hash = createHash('sha256');
      for (const line of lines.slice(0, -2)) hash.update(`${line}\n`);
      trailer.sha256 = hash.digest('hex');
      lines[lines.length - 2] = JSON.stringify(trailer);
    });
    await expect(importDatabase({ file: edited, databaseUrl: url })).rejects.toThrow(
      /^A row of models in the export file could not be stored \(invalid input syntax for type bigint: "a lot"\)\. Nothing was imported\.$/,
    );
    const all = await dumpPostgres(url);
    expect(Object.keys(all).length).toBeGreaterThan(10);
    expect(Object.values(all).flat()).toEqual([]);
    // The untouched file goes into the same database afterwards.
    expect((await importDatabase({ file, databaseUrl: url })).rows).toBeGreaterThan(0);
    expect(await dumpPostgres(url)).toEqual(await dumpSource());
  });

  it('refuses a truncated, corrupted or altered file, leaving the target empty', async () => {
    const url = await freshDatabase();
    const bytes = fs.readFileSync(file);
    const truncated = path.join(root, 'truncated.gz');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    const corrupted = path.join(root, 'corrupted.gz');
    const flipped = Buffer.from(bytes);
    for (let i = Math.floor(bytes.length / 2); i < Math.floor(bytes.length / 2) + 8; i++) flipped[i]! ^= 0xff;
    fs.writeFileSync(corrupted, flipped);
    // A valid gzip whose row was changed: only the checksum at the end can tell.
    const altered = rewritten((lines) => {
      const at = lines.findIndex((l) => l.includes('"ada"'));
      lines[at] = lines[at]!.replace('"ada"', '"eve"');
    });
    const cutShort = rewritten((lines) => {
      lines.splice(-3, 2);
    });
    for (const bad of [truncated, corrupted, altered, cutShort]) {
      await expect(importDatabase({ file: bad, databaseUrl: url }), bad).rejects.toThrow(
        `The export file ${bad} is damaged or incomplete (`,
      );
      const all = await dumpPostgres(url);
      expect(Object.values(all).flat(), bad).toEqual([]);
    }
    const notExport = path.join(root, 'notes.txt');
    fs.writeFileSync(notExport, 'hello');
    await expect(importDatabase({ file: notExport, databaseUrl: url })).rejects.toThrow(
      `${notExport} is not a database export of this shop`,
    );
  });
});
