import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getSessionUser } from '../auth/session-plugin.ts';

// Who is asking, as far as models care: a logged-in user (the session cookie), and/or a browser (the
// `visitor` cookie: 256 random bits, only its SHA-256 is stored as `owner_visitor_hash`).

export const VISITOR_COOKIE = 'visitor';
const VISITOR_MAX_AGE_S = 365 * 24 * 3600;
const VISITOR_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const VISITOR_HASH = /^[0-9a-f]{64}$/;

export type Viewer = { userId: number | null; isAdmin: boolean; visitorHash: string | null };
/** Who a new model belongs to: the account when logged in, else the browser. */
export type Owner = { userId: number; visitorHash: null } | { userId: null; visitorHash: string };

export function hashVisitorToken(token: string): string {
  return createHash('sha256').update(`visitor:${token}`).digest('hex');
}

/** A stored visitor hash as is, or the hash of a raw cookie value; null for anything else. */
export function toVisitorHash(hashOrCookie: string | null | undefined): string | null {
  if (typeof hashOrCookie !== 'string') return null;
  if (VISITOR_HASH.test(hashOrCookie)) return hashOrCookie;
  if (VISITOR_TOKEN.test(hashOrCookie)) return hashVisitorToken(hashOrCookie);
  return null;
}

export function readVisitorHash(req: FastifyRequest): string | null {
  const token = req.cookies[VISITOR_COOKIE];
  return typeof token === 'string' && VISITOR_TOKEN.test(token) ? hashVisitorToken(token) : null;
}

/** The browser's visitor hash, giving it a cookie first if it has none (or a malformed one). */
export function ensureVisitorHash(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = readVisitorHash(req);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(VISITOR_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: VISITOR_MAX_AGE_S,
  });
  return hashVisitorToken(token);
}

/** The logged-in user: the auth feature's session helper (one lookup per request). */
export async function currentUser(req: FastifyRequest): Promise<{ id: number; isAdmin: boolean } | null> {
  return getSessionUser(req);
}

export async function resolveViewer(req: FastifyRequest): Promise<Viewer> {
  const user = await currentUser(req);
  return { userId: user?.id ?? null, isAdmin: user?.isAdmin ?? false, visitorHash: readVisitorHash(req) };
}
