import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with no environment at all', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.secureCookies).toBe(false);
    expect(c.buildVolumeMm).toEqual({ x: 256, y: 256, z: 256 });
    expect(c.stripe).toBeUndefined();
    expect(c.s3).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.uploadMinFreeBytes).toBe(512 * 1024 * 1024);
  });

  it('stops with a message naming the wrong variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ BUILD_VOLUME_MM: '256' })).toThrow(/BUILD_VOLUME_MM/);
    expect(() => loadConfig({ REDIS_URL: 'localhost' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_PREFIX: '../x' })).toThrow(/S3_PREFIX/);
    expect(() => loadConfig({ UPLOAD_MIN_FREE_MB: '-1' })).toThrow(/UPLOAD_MIN_FREE_MB/);
  });

  it('reads the public URL and marks cookies secure on https', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://shop.example.com/' });
    expect(c.publicUrl).toBe('https://shop.example.com');
    expect(c.secureCookies).toBe(true);
  });

  it('puts model files in S3 when S3_BUCKET is set, path-style when an endpoint is given', () => {
    const aws = loadConfig({ S3_BUCKET: 'shop-files' });
    expect(aws.s3).toMatchObject({ bucket: 'shop-files', region: 'us-east-1', forcePathStyle: false });
    expect(aws.s3?.prefix).toBe('printshop/');
    const minio = loadConfig({
      S3_BUCKET: 'shop-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PREFIX: '',
    });
    expect(minio.s3).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true, prefix: '' });
  });

  describe('which payment provider runs (issue: never a surprise)', () => {
    const KEY = 'sk_test_abc123';
    const LIVE = 'sk_live_abc123';
    const HOOK = 'whsec_abc123';
    const PG = 'postgres://postgres@127.0.0.1:5432/test';

    it('runs the simulator on the embedded default, and when asked for by name', () => {
      expect(loadConfig({}).paymentProvider).toBe('simulator');
      expect(loadConfig({ NODE_ENV: 'production' }).paymentProvider).toBe('simulator');
      const named = loadConfig({ DATABASE_URL: PG, PAYMENT_PROVIDER: 'simulator' });
      expect(named.paymentProvider).toBe('simulator');
      expect(named.stripe).toBeUndefined();
    });

    it('runs Stripe with both secrets', () => {
      const c = loadConfig({ DATABASE_URL: PG, STRIPE_SECRET_KEY: LIVE, STRIPE_WEBHOOK_SECRET: HOOK });
      expect(c.paymentProvider).toBe('stripe');
      expect(c.stripe).toMatchObject({ secretKey: LIVE, webhookSecret: HOOK });
      expect(loadConfig({ STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: HOOK }).paymentProvider).toBe(
        'stripe',
      );
    });

    it('stops on PostgreSQL without a Stripe key, naming STRIPE_SECRET_KEY and PAYMENT_PROVIDER', () => {
      for (const env of [
        { DATABASE_URL: PG },
        { DATABASE_URL: PG, NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: HOOK },
        // A misspelled variable is no key at all.
        { DATABASE_URL: PG, STRIPE_SECRETKEY: KEY },
      ]) {
        expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      }
      expect(() => loadConfig({ DATABASE_URL: PG })).toThrow(/STRIPE_SECRET_KEY[\s\S]*PAYMENT_PROVIDER/);
    });

    it('stops on one Stripe secret without the other, on any tier', () => {
      expect(() => loadConfig({ STRIPE_SECRET_KEY: KEY })).toThrow(/STRIPE_WEBHOOK_SECRET/);
      expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: HOOK })).toThrow(/STRIPE_SECRET_KEY/);
      expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(
        /STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET/,
      );
    });

    it('stops on a key that is not one, a simulator asked for beside Stripe keys, or an unknown provider', () => {
      expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: HOOK })).toThrow(
        /STRIPE_SECRET_KEY/,
      );
      expect(() => loadConfig({ STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: 'abc' })).toThrow(
        /STRIPE_WEBHOOK_SECRET/,
      );
      expect(() =>
        loadConfig({ PAYMENT_PROVIDER: 'simulator', STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: HOOK }),
      ).toThrow(/PAYMENT_PROVIDER/);
      expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    });

    it('takes STRIPE_API_BASE over plain http only for a loopback stub', () => {
      const stripe = { STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: HOOK };
      for (const base of [
        'http://127.0.0.1:12111',
        'http://localhost:12111',
        'http://[::1]:12111',
        'https://api.example.com',
      ]) {
        expect(loadConfig({ ...stripe, STRIPE_API_BASE: base }).stripe?.apiBase, base).toBe(base);
      }
      for (const base of ['http://stripe-mock:12111', 'http://10.0.0.5', 'http://127.0.0.1.evil.com']) {
        expect(() => loadConfig({ ...stripe, STRIPE_API_BASE: base }), base).toThrow(/STRIPE_API_BASE/);
      }
    });

    it('caps an order at $999,999.99 unless told less', () => {
      expect(loadConfig({}).maxOrderCents).toBe(99_999_999);
      expect(loadConfig({ MAX_ORDER_TOTAL_USD: '5000' }).maxOrderCents).toBe(500_000);
      expect(() => loadConfig({ MAX_ORDER_TOTAL_USD: '1000000' })).toThrow(/MAX_ORDER_TOTAL_USD/);
    });
  });
});
