import { and, desc, eq, inArray } from 'drizzle-orm';
import { SHIPPING_COUNTRIES } from '../../shared/catalog.ts';
import type { ShipTo, TaxMode } from '../../shared/shipping.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { orders } from '../db/schema.ts';

/** What happens to taxes at checkout, so every page can say it (src/shared/shipping.ts TAX_WORDS). */
export function taxModeOf(config: Pick<Config, 'paymentProvider' | 'stripe'>): TaxMode {
  if (config.paymentProvider !== 'stripe') return 'test';
  return config.stripe?.automaticTax ? 'automatic' : 'none';
}

const PAID_ONWARDS = ['paid', 'queued', 'printing', 'shipped'];

/** Where a customer shipped last (their last paid order's country), else the US: the cart's first 'Ship to'. */
export async function lastShipTo(db: Db, userId: number | null): Promise<ShipTo> {
  if (userId === null) return 'US';
  const [last] = await db
    .select({ country: orders.shippingCountry, shipTo: orders.shipTo })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, PAID_ONWARDS)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  const country = last?.country ?? last?.shipTo;
  return SHIPPING_COUNTRIES.find((c) => c === country) ?? 'US';
}
