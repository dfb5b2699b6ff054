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
});
