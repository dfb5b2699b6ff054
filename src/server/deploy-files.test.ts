import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API } from '../shared/api.ts';
import { MAX_UPLOAD_BYTES } from '../shared/catalog.ts';
import { WEBHOOK_PATH } from './checkout/webhook-route.ts';
import { loadConfig } from './config.ts';
import { clientBucket } from './http/client-key.ts';
import { HEADERS_TIMEOUT_MS } from './http/connection-guard.ts';

// The deployment files (docs/deploy.md) against the code they configure: compose.yaml's wiring and the
// example settings must load as the page says, and the proxy's paths and limits must be the app's.

const read = (file: string) => fs.readFileSync(file, 'utf8');

type EnvFile = { set: Record<string, string>; commented: Record<string, string> };

/** `KEY=value` lines; `#KEY=value` lines are settings shown commented out. */
function envFile(file: string): EnvFile {
  const out: EnvFile = { set: {}, commented: {} };
  for (const m of read(file).matchAll(/^(#?)([A-Z][A-Z0-9_]*)=(.*)$/gm)) {
    out[m[1] ? 'commented' : 'set'][m[2]!] = m[3]!;
  }
  return out;
}

/** The passwords of `.env`, as an operator fills in deploy/compose.env.example. */
const composeVars: Record<string, string> = {
  ...envFile('deploy/compose.env.example').set,
  POSTGRES_PASSWORD: 'pgpass123',
  MINIO_ROOT_PASSWORD: 'rootpass123',
  S3_SECRET_ACCESS_KEY: 'shopsecret123',
};

/** The shop's `environment:` in compose.yaml (its x-app block), `${VAR:?…}` filled from `vars`. */
function composeAppEnv(vars: Record<string, string>): Record<string, string> {
  const text = read('compose.yaml');
  const app = text.slice(text.indexOf('\nx-app:'), text.indexOf('\nservices:'));
  const block = app.slice(app.indexOf('\n  environment:\n'), app.indexOf('\n  depends_on:'));
  const env: Record<string, string> = {};
  for (const m of block.matchAll(/^ {4}([A-Z][A-Z0-9_]*): (.*)$/gm)) {
    env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1').replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_, name: string) => {
      const value = vars[name];
      if (!value) throw new Error(`compose.yaml uses ${name}, which deploy/compose.env.example lacks`);
      return value;
    });
  }
  return env;
}

const shopExample = envFile('deploy/shop.env.example');
// compose's `environment:` wins over its `env_file:`.
const composeEnv = { ...shopExample.set, ...composeAppEnv(composeVars) };

describe('compose.yaml and its example settings', () => {
  it('wire the shop to PostgreSQL, Redis and MinIO behind one proxy, on https', () => {
    const config = loadConfig({ ...composeEnv, PAYMENT_PROVIDER: 'simulator' });
    expect(config.databaseUrl).toBe('postgres://printshop:pgpass123@postgres:5432/printshop');
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.s3).toEqual({
      bucket: 'printshop',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      accessKeyId: 'printshop',
      secretAccessKey: 'shopsecret123',
      prefix: 'printshop/',
    });
    // The bucket minio-setup makes is the one the shop uses, with the key it makes.
    expect(read('compose.yaml')).toContain(`mc mb --ignore-existing local/${config.s3?.bucket}\n`);
    expect(config.trustProxy).toBe(1);
    expect(config.maxConnectionsPerIp).toBe(0);
    expect(config.publicUrl).toBe('https://shop.example.com');
    expect(config.secureCookies).toBe(true);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.paymentProvider).toBe('simulator');
  });

  it('as shipped, ask for the Stripe keys on PostgreSQL, naming them', () => {
    expect(() => loadConfig(composeEnv)).toThrow(
      /STRIPE_SECRET_KEY: not set, and the shop runs on DATABASE_URL/,
    );
  });

  it('show only settings the shop reads when uncommented', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    const effects: Record<string, (value: string) => unknown> = {
      MAIL_FROM: (v) => loadConfig({ ...composeEnv, ...stripe, MAIL_FROM: v }).mailFrom,
      SMTP_URL: (v) => loadConfig({ ...composeEnv, ...stripe, SMTP_URL: v }).smtpUrl,
      STRIPE_AUTOMATIC_TAX: (v) =>
        String(loadConfig({ ...composeEnv, ...stripe, STRIPE_AUTOMATIC_TAX: v }).stripe?.automaticTax),
      PAYMENT_PROVIDER: (v) => loadConfig({ ...composeEnv, PAYMENT_PROVIDER: v }).paymentProvider,
    };
    expect(Object.keys(shopExample.commented).sort()).toEqual(Object.keys(effects).sort());
    for (const [name, value] of Object.entries(shopExample.commented)) {
      expect(effects[name]!(value), name).toBe(value);
    }
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');
  const location = (path: string) => {
    const start = conf.indexOf(`location = ${path} {`);
    expect(start, `location = ${path}`).toBeGreaterThan(-1);
    return conf.slice(start, conf.indexOf('}', start));
  };

  it("gives uploads the app's size limit, and Stripe's webhook no flood brake", () => {
    const size = /client_max_body_size (\d+)m;/.exec(location(API.upload.path));
    const bytes = Number(size?.[1]) * 1024 * 1024;
    // Room for the multipart framing, not for a second file.
    expect(bytes).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(bytes).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 2 * 1024 * 1024);
    expect(location(WEBHOOK_PATH)).not.toContain('limit_req');
  });

  it("caps clients where the app's own per-address cap is off (TRUST_PROXY), and slow headers as the app", () => {
    expect(Number(/limit_conn shop_conn (\d+);/.exec(conf)?.[1])).toBe(loadConfig({}).maxConnectionsPerIp);
    expect(Number(/client_header_timeout (\d+)s;/.exec(conf)?.[1]) * 1000).toBe(HEADERS_TIMEOUT_MS);
  });

  it('counts a client as the app does: an IPv4 address, an IPv6 /64', () => {
    const block = /map \$remote_addr \$shop_client \{\n([\s\S]*?)\n {4}\}/.exec(conf)?.[1] ?? '';
    const rules = [...block.matchAll(/^\s*"~(\S+)" (\S+);$/gm)].map((m) => ({
      re: new RegExp(m[1]!),
      to: m[2]!,
    }));
    const fallback = /^\s*default (\S+);$/m.exec(block)?.[1];
    expect(rules.length).toBeGreaterThan(4);
    expect(fallback).toBe('$remote_addr');
    // nginx's map: the first regex that matches, its named captures put into the value.
    const nginxKey = (addr: string) => {
      for (const { re, to } of rules) {
        const m = re.exec(addr);
        if (m) return to.replace(/\$(\w+)/g, (_, name: string) => m.groups?.[name] ?? '');
      }
      return addr;
    };
    const hex = (n: number) => n.toString(16);
    const random = (zeroChance: number) =>
      Array.from({ length: 8 }, () => (Math.random() < zeroChance ? 0 : Math.floor(Math.random() * 65536)));
    // The forms nginx may write: the longest zero run as "::" (or a single zero kept), never leading zeros.
    const written = (groups: number[]) => {
      const full = groups.map(hex).join(':');
      const canonical = new URL(`http://[${full}]/`).hostname.slice(1, -1);
      const single = groups.indexOf(0);
      const oneZero =
        single < 0
          ? full
          : `${groups.slice(0, single).map(hex).join(':')}::${groups
              .slice(single + 1)
              .map(hex)
              .join(':')}`;
      return [full, canonical, oneZero];
    };
    const samples = [
      '1.2.3.4',
      '::ffff:1.2.3.4',
      '::1',
      '::',
      '2001:db8::1',
      '2001:db8:1:2::',
      'fe80::1:2:3:4',
    ];
    for (let i = 0; i < 2000; i++) samples.push(...written(random(i % 2 ? 0.5 : 0.1)));
    for (const addr of samples) expect(nginxKey(addr), addr).toBe(clientBucket(addr));
  });

  it('passes the client address and its own request id, and logs no query string', () => {
    expect(conf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(conf).toContain('proxy_set_header X-Request-Id $request_id;');
    expect(conf).not.toMatch(/log_format[^;]*\$(request|request_uri|args|query_string|http_referer)\b/);
  });

  it("sends to compose.yaml's instances on the image's port", () => {
    const compose = read('compose.yaml');
    const port = /ENV[\s\S]*?PORT=(\d+)/.exec(read('Dockerfile'))?.[1];
    const servers = [...conf.matchAll(/^\s+server ([\w-]+):(\d+) /gm)];
    expect(servers.length).toBeGreaterThanOrEqual(2);
    for (const [, host, serverPort] of servers) {
      expect(compose).toContain(`\n  ${host}:\n    <<: *app\n`);
      expect(serverPort).toBe(port);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('runs the compiled server, not npm start, as an unprivileged user with a health check', () => {
    expect(dockerfile).toContain('CMD ["node", "dist/server/main.js"]');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    expect(dockerfile.match(/^RUN .*$/gm)?.join('\n')).not.toMatch(/chromium|playwright/i);
  });

  it('builds without local state or secrets', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const path of ['node_modules', 'dist', 'data', '.env', 'deploy/shop.env', 'deploy/certs']) {
      expect(ignored, path).toContain(path);
    }
  });
});
