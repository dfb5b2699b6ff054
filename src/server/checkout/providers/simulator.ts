import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { shippingAddress } from '../../../shared/address.ts';
import type { Db } from '../../db/client.ts';
import { type SimulatorSession, simulatorSessions } from '../../db/schema.ts';
import {
  type CreatedSession,
  type NewRefund,
  type NewSession,
  type PaymentProvider,
  type ProviderRefund,
  type RawAddress,
  SessionNotFoundError,
  type SessionState,
} from '../payment-provider.ts';

// The embedded default's payment provider: hosted sessions kept in the database and paid on the shop's
// own TEST MODE page (/pay/simulator/:id). No money moves: its orders are test orders. Sessions read back
// exactly as Stripe's do, so the fulfilment cannot tell the two apart; like Stripe's, a session is made once
// per order (asking again answers the first), can be expired, and refunds are answered at once.

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
  readonly mode = 'simulator' as const;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly now: () => Date,
  ) {}

  async createSession(input: NewSession): Promise<CreatedSession> {
    const id = newSimulatorSessionId();
    const [made] = await this.db
      .insert(simulatorSessions)
      .values({
        id,
        orderId: input.orderId,
        // The first shipping option is preselected, as on Stripe's page.
        amountTotalCents:
          input.lines.reduce((sum, l) => sum + l.amountCents, 0) +
          (input.shippingOptions[0]?.amountCents ?? 0),
        amountSubtotalCents: input.lines.reduce((sum, l) => sum + l.amountCents, 0),
        amountShippingCents: input.shippingOptions[0]?.amountCents ?? 0,
        shippingOptionId: input.shippingOptions[0]?.id ?? null,
        shippingOptions: input.shippingOptions,
        shipTo: input.shipTo,
        currency: input.currency,
        lines: input.lines,
        successUrl: input.successUrl.replaceAll(SESSION_PLACEHOLDER, id),
        cancelUrl: input.cancelUrl,
        expiresAt: input.expiresAt,
        createdAt: this.now(),
      })
      // The order's session exists already (a retried checkout): answer that one, as Stripe's idempotency does.
      .onConflictDoNothing({ target: simulatorSessions.orderId })
      .returning({ id: simulatorSessions.id, expiresAt: simulatorSessions.expiresAt });
    const session =
      made ??
      (
        await this.db
          .select({ id: simulatorSessions.id, expiresAt: simulatorSessions.expiresAt })
          .from(simulatorSessions)
          .where(eq(simulatorSessions.orderId, input.orderId))
      )[0];
    if (!session) throw new Error(`no simulator session for order ${input.orderId}`);
    return {
      id: session.id,
      url: `${this.publicUrl}/pay/simulator/${session.id}`,
      expiresAt: session.expiresAt,
    };
  }

  async retrieveSession(id: string): Promise<SessionState> {
    const row = await findSimulatorSession(this.db, id);
    if (!row) throw new SessionNotFoundError('No such checkout session.');
    const raw = (row.shipping as RawAddress | null) ?? null;
    const shipping = raw ? shippingAddress.safeParse(raw) : null;
    return {
      id: row.id,
      status: statusAt(row, this.now()),
      paymentStatus: row.paymentStatus,
      amountTotalCents: row.amountTotalCents,
      // Sessions from before shipping methods: the items were the whole total.
      amountSubtotalCents: row.amountSubtotalCents ?? row.amountTotalCents,
      shippingCents: row.amountShippingCents ?? 0,
      shippingMethodId: row.shippingOptionId,
      // The simulator charges no tax (in live mode Stripe computes it).
      taxCents: 0,
      taxLines: [],
      currency: row.currency,
      paymentIntentId: row.paymentIntentId,
      paymentIntentStatus: row.paymentStatus === 'paid' ? 'succeeded' : null,
      chargeId: row.paymentIntentId ? row.paymentIntentId.replace(/^pi_sim_/, 'ch_sim_') : null,
      shipping: shipping?.success ? shipping.data : null,
      rawShipping: raw,
      orderId: row.orderId,
    };
  }

  async expireSession(id: string): Promise<'expired' | 'complete'> {
    if (!isSimulatorSessionId(id)) return 'expired';
    // A Pay under way holds the row: this waits for it, then sees it complete.
    const [row] = await this.db
      .update(simulatorSessions)
      .set({ status: 'expired', expiresAt: this.now() })
      .where(and(eq(simulatorSessions.id, id), eq(simulatorSessions.status, 'open')))
      .returning({ id: simulatorSessions.id });
    if (row) return 'expired';
    const now = await findSimulatorSession(this.db, id);
    return now?.status === 'complete' ? 'complete' : 'expired';
  }

  /** No money moved, so a refund is done at once; the same key gives the same refund id. */
  async refund(input: NewRefund): Promise<ProviderRefund> {
    const digest = createHash('sha256').update(input.idempotencyKey).digest('base64url').slice(0, 24);
    return {
      id: `re_sim_${digest}`,
      amountCents: input.amountCents,
      currency: input.currency,
      status: 'succeeded',
      paymentIntentId: input.paymentIntentId,
      metadata: input.metadata,
    };
  }

  /** Every simulator refund is made by the shop itself and recorded there. */
  async listRefunds(): Promise<ProviderRefund[]> {
    return [];
  }

  async customerFor(): Promise<string | null> {
    return null;
  }
}
