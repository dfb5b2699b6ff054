import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getSessionUser } from '../auth/session-plugin.ts';

// Who is asking, as far as models care: a logged-in user (the session cookie), and/or a browser (the
// `visitor` cookie: 256 random bits, only its SHA-256 is stored as `owner_visitor_hash`).

export const VISITOR_COOKIE = 'visitor';
const VISITOR_MAX_AGE_S = 365 * 24 * 3600;
const VISITOR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type Viewer = { userId: number | null; isAdmin: boolean; visitorHash: string | null };
/** Who a new model belongs to: the account when logged in, else the browser. */
export type Owner = { userId: number; visitorHash: null } | { userId: null; visitorHash: string };

export function hashVisitorToken(token: string): string {
  return createHash('sha256').update(`visitor:${token}`).digest('hex');
}

/**
 * The hash of a raw `visitor` cookie value; null for anything else. A 64-hex value is refused even though
 * it looks like what the database keeps: the stored hash must never work as the cookie itself.
 */
export function toVisitorHash(cookieValue: string | null | undefined): string | null {
  return typeof cookieValue === 'string' && VISITOR_TOKEN.test(cookieValue)
    ? hashVisitorToken(cookieValue)
    : null;
}

export function readVisitorHash(req: FastifyRequest): string | null {
  return toVisitorHash(req.cookies[VISITOR_COOKIE]);
}

/** The browser's visitor hash, giving it a cookie first if it has none (or a malformed one). */
export function ensureVisitorHash(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = readVisitorHash(req);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(VISITOR_COOKIE, token, { ...visitorCookieOptions(secure), maxAge: VISITOR_MAX_AGE_S });
  return hashVisitorToken(token);
}

/**
 * Ends the browser's visitor cookie (at logout): the next person to log in on a shared browser does not
 * inherit what was uploaded here before. The browser's next upload gets a new cookie.
 */
export function clearVisitorCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(VISITOR_COOKIE, visitorCookieOptions(secure));
}

function visitorCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };
}

/** The logged-in user: the auth feature's session helper (one lookup per request). */
export async function currentUser(req: FastifyRequest): Promise<{ id: number; isAdmin: boolean } | null> {
  return getSessionUser(req);
}

export async function resolveViewer(req: FastifyRequest): Promise<Viewer> {
  const user = await currentUser(req);
  return { userId: user?.id ?? null, isAdmin: user?.isAdmin ?? false, visitorHash: readVisitorHash(req) };
}
