import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { shippingAddress } from '../../../shared/address.ts';
import type { Db } from '../../db/client.ts';
import { type SimulatorSession, simulatorSessions } from '../../db/schema.ts';
import {
  type CreatedSession,
  type NewSession,
  type PaymentProvider,
  PaymentProviderError,
  type SessionState,
} from '../payment-provider.ts';

// The embedded default's payment provider: hosted sessions kept in the database and paid on the shop's
// own TEST MODE page (/pay/simulator/:id). No money moves. Sessions read back exactly as Stripe's do, so
// the fulfilment cannot tell the two apart.

export const SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

export function newSimulatorSessionId(): string {
  return `cs_sim_${randomBytes(24).toString('base64url')}`;
}

export function isSimulatorSessionId(id: string): boolean {
  return /^cs_sim_[A-Za-z0-9_-]{32}$/.test(id);
}

/** A session's status now: an open session past its expiry reads as expired, as Stripe's do. */
export function statusAt(
  row: Pick<SimulatorSession, 'status' | 'expiresAt'>,
  now: Date,
): SessionState['status'] {
  return row.status === 'open' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status;
}

export async function findSimulatorSession(db: Db, id: string): Promise<SimulatorSession | undefined> {
  if (!isSimulatorSessionId(id)) return undefined;
  const [row] = await db.select().from(simulatorSessions).where(eq(simulatorSessions.id, id)).limit(1);
  return row;
}

export class SimulatorProvider implements PaymentProvider {
  readonly name = 'simulator' as const;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly now: () => Date,
  ) {}

  async createSession(input: NewSession): Promise<CreatedSession> {
    const id = newSimulatorSessionId();
    await this.db.insert(simulatorSessions).values({
      id,
      orderId: input.orderId,
      amountTotalCents: input.lines.reduce((sum, l) => sum + l.amountCents, 0),
      currency: input.currency,
      lines: input.lines,
      successUrl: input.successUrl.replaceAll(SESSION_PLACEHOLDER, id),
      cancelUrl: input.cancelUrl,
      expiresAt: input.expiresAt,
      createdAt: this.now(),
    });
    return { id, url: `${this.publicUrl}/pay/simulator/${id}`, expiresAt: input.expiresAt };
  }

  async retrieveSession(id: string): Promise<SessionState> {
    const row = await findSimulatorSession(this.db, id);
    if (!row) throw new PaymentProviderError('No such checkout session.');
    const shipping = row.shipping ? shippingAddress.safeParse(row.shipping) : null;
    return {
      id: row.id,
      status: statusAt(row, this.now()),
      paymentStatus: row.paymentStatus,
      amountTotalCents: row.amountTotalCents,
      currency: row.currency,
      paymentIntentId: row.paymentIntentId,
      shipping: shipping?.success ? shipping.data : null,
      orderId: row.orderId,
    };
  }
}
