import { createHmac } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { cachedInstallSecret } from '../db/install-secret.ts';
import { clientBucket } from '../http/client-key.ts';

// The per-IP upload quota counts models by the client's address bucket (an IPv4 address, an IPv6 /64,
// as the rate limits do), stored only as an HMAC keyed with a random per-install secret, so the models
// table never holds an address. The key lives in the same database, so whoever reads it all can still
// test guesses: the real protection is that the hashes are cleared once their day is over (cleanup.ts).

const SECRET_NAME = 'upload-ip';

export type UploadIpHasher = (ip: string) => Promise<string>;

/** `req.ip` -> the stored hash of its bucket; the key is read once and kept. */
export function createUploadIpHasher(db: Db): UploadIpHasher {
  const key = cachedInstallSecret(db, SECRET_NAME);
  return async (ip) => {
    return createHmac('sha256', await key())
      .update(clientBucket(ip))
      .digest('hex');
  };
}
