import { createHmac, timingSafeEqual } from 'node:crypto';
import { type PreviewColorId, previewColorId } from '../../shared/preview-color.ts';
import type { Db } from '../db/client.ts';
import { cachedInstallSecret } from '../db/install-secret.ts';

// Previews are private (owner, order owner, staff), but a mail client and Stripe's hosted checkout fetch
// them without the customer's cookie. They get a link signed with a per-install key that opens one
// model's preview, in the colour it names, until it expires, and nothing else: the signature covers the
// colour, so a link cannot be given another colour (or have one taken off) and still open. Links signed
// without a colour (mails sent before colours) keep working as they are.

const SECRET_NAME = 'preview-links';

export type PreviewLinks = {
  /**
   * An absolute preview URL for `modelId` that works without a session until `expiresAt`, in `color` (a
   * catalog colour, hex or name) when given and known.
   */
  sign(modelId: string, expiresAt: Date, color?: string | null): Promise<string>;
  /**
   * Reads the key now. Call it before a transaction that signs links: on PGlite (one connection) a first
   * read of the key from inside someone else's transaction would wait for that transaction forever.
   */
  ready(): Promise<void>;
  /**
   * Whether `exp` and `sig` of a preview request are a valid, unexpired signature for `modelId` and the
   * colour it asks for (`color`, a preview colour id, or none).
   */
  verify(modelId: string, exp: unknown, sig: unknown, now: Date, color?: PreviewColorId): Promise<boolean>;
};

export function createPreviewLinks(db: Db, publicUrl: string): PreviewLinks {
  const keyOnce = cachedInstallSecret(db, SECRET_NAME);
  // An id and a number never end in `:color=...`, so a link with a colour and one without never share a MAC.
  const mac = async (modelId: string, exp: number, color: PreviewColorId | undefined) =>
    createHmac('sha256', await keyOnce())
      .update(color ? `${modelId}:${exp}:color=${color}` : `${modelId}:${exp}`)
      .digest();
  return {
    async ready() {
      await keyOnce();
    },
    async sign(modelId, expiresAt, color) {
      const exp = Math.floor(expiresAt.getTime() / 1000);
      const id = previewColorId(color) ?? undefined;
      const sig = (await mac(modelId, exp, id)).toString('base64url');
      const path = `${publicUrl}/api/models/${encodeURIComponent(modelId)}/preview.png`;
      return `${path}?exp=${exp}&sig=${sig}${id ? `&color=${id}` : ''}`;
    },
    async verify(modelId, exp, sig, now, color) {
      if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return false;
      const expiry = Number(exp);
      if (expiry * 1000 < now.getTime()) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = await mac(modelId, expiry, color);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
