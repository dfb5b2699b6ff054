import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { installSecrets } from './schema.ts';

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

/** A secret read once and kept; a failed read is tried again next time rather than kept. */
export function cachedInstallSecret(db: Db, name: string): () => Promise<string> {
  let key: Promise<string> | null = null;
  return () => {
    key ??= installSecret(db, name).catch((err: unknown) => {
      key = null;
      throw err;
    });
    return key;
  };
}
