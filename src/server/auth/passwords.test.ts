import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { MemoryAttemptLimiter } from './login-throttle.ts';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from './passwords.ts';
import { hashToken, isWellFormedToken, newToken } from './tokens.ts';

describe('passwords (docs/security.md 3)', () => {
  it('hash with argon2id, m=19456 KiB, t=2, p=1, a fresh salt each time', async () => {
    const a = await hashPassword('hunter22');
    const b = await hashPassword('hunter22');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'hunter22')).toBe(true);
    expect(await verifyPassword(a, 'hunter23')).toBe(false);
    expect(await verifyPassword('not a hash', 'hunter22')).toBe(false);
    expect(await verifyDummyPassword('hunter22')).toBe(false);
  });

  it('flag weaker hashes for a rehash at the next login', async () => {
    expect(needsRehash(await hashPassword('x'))).toBe(false);
    expect(needsRehash(await hash('x', { memoryCost: 4096, timeCost: 1, parallelism: 1 }))).toBe(true);
    expect(needsRehash('$2b$10$bcrypt-hash')).toBe(true);
  });
});

describe('tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256', () => {
    const { token, hash: digest } = newToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(isWellFormedToken(token)).toBe(true);
    expect(digest).toBe(hashToken(token));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(newToken().token).not.toBe(token);
    for (const bad of [undefined, 42, '', 'short', `${token}x`, `${token.slice(0, 42)}=`]) {
      expect(isWellFormedToken(bad)).toBe(false);
    }
  });
});

describe('MemoryAttemptLimiter', () => {
  it('counts max attempts in the window, then blocks until the oldest leaves it; reset forgets', async () => {
    const limiter = new MemoryAttemptLimiter({ max: 3, windowMs: 1000 });
    const at = (ms: number) => new Date(ms);
    expect(await limiter.take('k', at(0))).toBe(0);
    expect(await limiter.take('k', at(100))).toBe(0);
    expect(await limiter.take('k', at(200))).toBe(0);
    expect(await limiter.take('k', at(300))).toBe(700);
    // A blocked attempt is not counted: the wait does not grow.
    expect(await limiter.take('k', at(300))).toBe(700);
    expect(await limiter.take('other', at(300))).toBe(0);
    expect(await limiter.take('k', at(1000))).toBe(0);
    expect(await limiter.take('k', at(1050))).toBe(50);
    await limiter.reset('k');
    expect(await limiter.take('k', at(1050))).toBe(0);
  });

  it('counts simultaneous attempts: only max of them get through', async () => {
    const limiter = new MemoryAttemptLimiter({ max: 3, windowMs: 1000 });
    const waits = await Promise.all(Array.from({ length: 10 }, () => limiter.take('k', new Date(0))));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
  });

  it('forgive un-counts one attempt, not the others', async () => {
    const limiter = new MemoryAttemptLimiter({ max: 2, windowMs: 1000 });
    await limiter.take('k', new Date(0));
    await limiter.take('k', new Date(10));
    await limiter.forgive('k', new Date(10));
    await limiter.forgive('k', new Date(99)); // never taken: nothing happens
    expect(await limiter.take('k', new Date(20))).toBe(0);
    expect(await limiter.take('k', new Date(30))).toBe(970);
  });

  it('keeps at most maxKeys keys', async () => {
    const limiter = new MemoryAttemptLimiter({ max: 1, windowMs: 1000, maxKeys: 2 });
    for (const k of ['a', 'b', 'c']) await limiter.take(k, new Date(0));
    expect(await limiter.take('a', new Date(1))).toBe(0);
    expect(await limiter.take('c', new Date(1))).toBe(999);
  });
});
