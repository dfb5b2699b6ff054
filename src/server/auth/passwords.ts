import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum (m=19456 KiB, t=2, p=1; docs/security.md 3): ~20 ms per hash here.

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id: a const enum, not importable as a value.

export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const options = { algorithm: ARGON2ID, ...ARGON2_PARAMS };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** False (never throws) for a wrong password or a hash that does not parse. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Whether a stored hash was made with weaker (or other) parameters than today's, so it is redone at login. */
export function needsRehash(passwordHash: string): boolean {
  try {
    const p = parseOptions(passwordHash);
    return (
      p.algorithm !== ARGON2ID ||
      p.memoryCost < ARGON2_PARAMS.memoryCost ||
      p.timeCost < ARGON2_PARAMS.timeCost ||
      p.parallelism < ARGON2_PARAMS.parallelism
    );
  } catch {
    return true;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throw-away hash with the same parameters, so "no such user" takes as long as
 * "wrong password" (docs/security.md 4). Always false.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
