import { createHash, randomBytes } from 'node:crypto';

// Session, verification and reset tokens: 32 random bytes (256 bits) sent as base64url; only the SHA-256
// hash is stored, so a leaked database holds nothing a client could present.

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type NewToken = { token: string; hash: string };

export function newToken(): NewToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a presented value even looks like one of our tokens (saves a query on garbage). */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}
