import type { Db } from '../db/client.ts';
import { cachedInstallSecret } from '../db/install-secret.ts';

// This installation's id, in every idempotency key the shop sends a payment provider
// (`<install id>:order:<order id>`): two shops, or a test and a live database, sharing one Stripe account
// never take each other's session or refund for their own.

export type InstallId = () => Promise<string>;

export function cachedInstallId(db: Db): InstallId {
  const secret = cachedInstallSecret(db, 'install-id');
  return async () => (await secret()).slice(0, 16);
}
