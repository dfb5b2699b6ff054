import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { cachedInstallSecret } from '../db/install-secret.ts';

// Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
// logged in to an account before carries a cookie that proves it, and failed logins of other clients
// never lock that browser out (login-throttle.ts). An entry is `nonce.mac`, the mac an HMAC of the
// account id and the nonce under a per-install secret: nothing the database keeps works as one, and an
// entry proves nothing for another account. One cookie holds the entries of the last few accounts that
// logged in on the browser.

const SECRET_NAME = 'device-cookie';
const MAX_ENTRIES = 4;
const MAX_AGE_S = 180 * 24 * 3600;
const ENTRY = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

type CookieConfig = Pick<Config, 'secureCookies'>;

/** `__Host-device` over HTTPS (Secure, Path=/, no Domain), else `device`. */
export function deviceCookieName(config: CookieConfig): string {
  return config.secureCookies ? '__Host-device' : 'device';
}

export type DeviceCookies = {
  /** The nonce of the request's entry for `userId` (its throttle bucket), or null when it has none. */
  trustedNonce(req: FastifyRequest, userId: number): Promise<string | null>;
  /** After a successful login: a fresh entry for `userId` first, the other accounts' entries kept. */
  issue(req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void>;
};

export function deviceCookies(db: Db, config: CookieConfig): DeviceCookies {
  const secret = cachedInstallSecret(db, SECRET_NAME);
  const name = deviceCookieName(config);
  const mac = async (userId: number, nonce: string) =>
    createHmac('sha256', await secret())
      .update(`device:${userId}:${nonce}`)
      .digest('base64url');

  const entries = (req: FastifyRequest): Array<{ nonce: string; mac: string }> => {
    const value = req.cookies[name];
    if (typeof value !== 'string' || value.length > 80 * MAX_ENTRIES) return [];
    return value
      .split('~')
      .slice(0, MAX_ENTRIES)
      .flatMap((e) => {
        const m = ENTRY.exec(e);
        return m ? [{ nonce: m[1]!, mac: m[2]! }] : [];
      });
  };

  const isFor = async (entry: { nonce: string; mac: string }, userId: number) =>
    timingSafeEqual(Buffer.from(entry.mac), Buffer.from(await mac(userId, entry.nonce)));

  return {
    async trustedNonce(req, userId) {
      for (const entry of entries(req)) if (await isFor(entry, userId)) return entry.nonce;
      return null;
    },
    async issue(req, reply, userId) {
      const nonce = randomBytes(16).toString('base64url');
      const kept: string[] = [];
      for (const entry of entries(req)) {
        if (!(await isFor(entry, userId))) kept.push(`${entry.nonce}.${entry.mac}`);
      }
      const value = [`${nonce}.${await mac(userId, nonce)}`, ...kept].slice(0, MAX_ENTRIES).join('~');
      reply.setCookie(name, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: config.secureCookies,
        maxAge: MAX_AGE_S,
      });
    },
  };
}
