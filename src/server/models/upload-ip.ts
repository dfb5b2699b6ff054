import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { installSecrets } from '../db/schema.ts';
import { clientBucket } from '../http/client-key.ts';

// The per-IP upload quota counts models by the client's address bucket (an IPv4 address, an IPv6 /64,
// as the rate limits do), stored only as an HMAC keyed with a random per-install secret, so the models
// table never holds an address. The key lives in the same database, so whoever reads it all can still
// test guesses: the real protection is that the hashes are cleared once their day is over (cleanup.ts).

const SECRET_NAME = 'upload-ip';

/** The named secret, made (32 random bytes, hex) by whichever instance asks first. */
export async function installSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(installSecrets)
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing({ target: installSecrets.name });
  const [row] = await db
    .select({ value: installSecrets.value })
    .from(installSecrets)
    .where(eq(installSecrets.name, name))
    .limit(1);
  if (!row) throw new Error(`install secret ${name} is missing`);
  return row.value;
}

export type UploadIpHasher = (ip: string) => Promise<string>;

/** `req.ip` -> the stored hash of its bucket; the key is read once and kept. */
export function createUploadIpHasher(db: Db): UploadIpHasher {
  let key: Promise<string> | null = null;
  return async (ip) => {
    key ??= installSecret(db, SECRET_NAME).catch((err: unknown) => {
      key = null; // Ask again next time rather than keep a failure.
      throw err;
    });
    return createHmac('sha256', await key)
      .update(clientBucket(ip))
      .digest('hex');
  };
}
