import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type StripeFake, startStripeFake } from '../checkout/testing/stripe-fake.ts';
import { loadConfig } from '../config.ts';
import { type Database, openPostgres } from '../db/client.ts';
import type { OutboxMail } from '../db/schema.ts';
import { startSmtpServer, type TestSmtpServer } from '../mail/testing.ts';
import { haveRedis, TEST_REDIS_URL } from './redis.ts';
import { TEST_ORIGIN } from './test-app.ts';
import { createScratchDatabase } from './test-db.ts';

// Two app instances as a deployment runs them behind one load balancer: one PostgreSQL database (each
// instance with its own pool), one Redis, one S3 bucket (s3rver), one SMTP server, one Stripe (the fake),
// each instance listening on its own real port with its own DATA_DIR. Both outbox workers poll as in
// production (NODE_ENV=production), so a mail sent twice would arrive twice at the SMTP server.

/** Skips a suite unless both PostgreSQL (DATABASE_URL) and Redis are there, naming what is missing. */
export const needsPostgresAndRedis = (() => {
  const missing = [
    !inject('pgTemplateUrl') && 'PostgreSQL only: set DATABASE_URL',
    !haveRedis && `Redis not reachable at ${TEST_REDIS_URL}`,
  ].filter(Boolean);
  return { skip: missing.length > 0, meta: { skipReason: missing.join('; ') } };
})();

export const WEBHOOK_SECRET = 'whsec_test_two_instances';

export type Instance = {
  name: 'A' | 'B';
  app: FastifyInstance;
  database: Database;
  dataDir: string;
  /** `http://127.0.0.1:port`: where this instance listens. */
  url: string;
  /** Mails this instance's outbox worker handed to SMTP (subject and recipient). */
  sent: { to: string; subject: string }[];
};

export type Deployment = {
  a: Instance;
  b: Instance;
  fake: StripeFake;
  smtp: TestSmtpServer;
  s3: S3Client;
  bucket: string;
  prefix: string;
  /** Both instances' clock. */
  now(): Date;
  /** Moves both instances' clock forward (one clock: one world). */
  advance(ms: number): void;
  close(): Promise<void>;
};

/** A new database cloned from the run's migrated template, and a way to drop it. */
function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratchDatabase(inject('pgTemplateUrl'), 'shop_two_');
}

async function startS3(bucket: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-two-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await server.run()) as unknown as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    s3,
    close: async () => {
      s3.destroy();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the shared services and two instances A and B on them. */
export async function startDeployment(): Promise<Deployment> {
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    const db = await createDatabase();
    cleanups.push(db.drop);
    const bucket = 'shop-two-instances';
    const prefix = 'two/';
    const s3 = await startS3(bucket);
    cleanups.push(s3.close);
    const smtp = await startSmtpServer();
    cleanups.push(smtp.stop);
    const fake = await startStripeFake();
    cleanups.push(fake.close);

    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const rateLimitNamespace = `two:${randomUUID()}:`;
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: TEST_ORIGIN,
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      RATE_LIMIT_SCALE: '100',
      SMTP_URL: smtp.url,
      STRIPE_SECRET_KEY: 'sk_test_two_instances',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      S3_BUCKET: bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: prefix,
    };

    const start = async (name: Instance['name']): Promise<Instance> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-two-${name}-`));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const config = loadConfig({ ...env, DATA_DIR: dataDir, CLIENT_DIR: path.join(dataDir, 'no-client') });
      const database = await openPostgres(db.url, { migrate: false });
      cleanups.push(() => database.close());
      const app = await buildApp({ config, database, now, rateLimitNamespace });
      cleanups.push(() => app.close());
      // Which instance's worker sent what: the mailer is the worker's own, wrapped before it starts.
      const sent: Instance['sent'] = [];
      const mailer = app.outbox.mailer;
      const send = mailer.send.bind(mailer);
      mailer.send = async (mail: OutboxMail, id: number) => {
        await send(mail, id);
        sent.push({ to: mail.to, subject: mail.subject });
      };
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { name, app, database, dataDir, url: `http://127.0.0.1:${port}`, sent };
    };
    const a = await start('A');
    const b = await start('B');
    return {
      a,
      b,
      fake,
      smtp,
      s3: s3.s3,
      bucket,
      prefix,
      now,
      advance: (ms) => {
        offset += ms;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export type Reply = {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
  /** `name=value` of each cookie set, by name. */
  cookies: Map<string, string>;
};

/** A real HTTP request to an instance, from the shop's own origin as the browser's would be. */
export async function call(
  instance: Instance,
  method: string,
  url: string,
  options: {
    json?: unknown;
    body?: Buffer | string;
    contentType?: string;
    cookie?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.body !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/octet-stream';
    // A copy in a plain ArrayBuffer: what fetch's types take.
    body = typeof options.body === 'string' ? options.body : new Uint8Array(options.body).buffer;
  }
  const res = await fetch(`${instance.url}${url}`, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  const cookies = new Map<string, string>();
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(';')[0] ?? '';
    const name = pair.slice(0, pair.indexOf('='));
    if (pair.length > name.length + 1) cookies.set(name, pair);
  }
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    text,
    json: <T>() => JSON.parse(text) as T,
    cookies,
  };
}

/** Waits until `check` holds (polling every 50 ms), or fails naming `what`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
