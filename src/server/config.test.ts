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
  });

  it('stops with a message naming the wrong variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ BUILD_VOLUME_MM: '256' })).toThrow(/BUILD_VOLUME_MM/);
  });

  it('reads the public URL and marks cookies secure on https', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://shop.example.com/' });
    expect(c.publicUrl).toBe('https://shop.example.com');
    expect(c.secureCookies).toBe(true);
  });
});
