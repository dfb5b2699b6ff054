import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { cachedInstallSecret } from '../db/install-secret.ts';

// Previews are private (owner, order owner, staff), but a mail client and Stripe's hosted checkout fetch
// them without the customer's cookie. They get a link signed with a per-install key that opens one
// model's preview until it expires, and nothing else.

const SECRET_NAME = 'preview-links';

export type PreviewLinks = {
  /** An absolute preview URL for `modelId` that works without a session until `expiresAt`. */
  sign(modelId: string, expiresAt: Date): Promise<string>;
  /**
   * Reads the key now. Call it before a transaction that signs links: on PGlite (one connection) a first
   * read of the key from inside someone else's transaction would wait for that transaction forever.
   */
  ready(): Promise<void>;
  /** Whether `exp` and `sig` of a preview request are a valid, unexpired signature for `modelId`. */
  verify(modelId: string, exp: unknown, sig: unknown, now: Date): Promise<boolean>;
};

export function createPreviewLinks(db: Db, publicUrl: string): PreviewLinks {
  const keyOnce = cachedInstallSecret(db, SECRET_NAME);
  const mac = async (modelId: string, exp: number) =>
    createHmac('sha256', await keyOnce())
      .update(`${modelId}:${exp}`)
      .digest();
  return {
    async ready() {
      await keyOnce();
    },
    async sign(modelId, expiresAt) {
      const exp = Math.floor(expiresAt.getTime() / 1000);
      const sig = (await mac(modelId, exp)).toString('base64url');
      return `${publicUrl}/api/models/${encodeURIComponent(modelId)}/preview.png?exp=${exp}&sig=${sig}`;
    },
    async verify(modelId, exp, sig, now) {
      if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return false;
      const expiry = Number(exp);
      if (expiry * 1000 < now.getTime()) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = await mac(modelId, expiry);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
