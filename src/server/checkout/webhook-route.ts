import { and, eq, or, sql, sum } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { orders, paymentEvents, refunds } from '../db/schema.ts';
import { methodNotAllowed, rateLimit } from '../http/route-helpers.ts';
import { raiseFlag } from '../orders/flags.ts';
import { recordProviderRefund } from '../orders/refunds.ts';
import { lockOrder } from '../orders/state-machine.ts';
import { type FulfilDeps, fulfilCheckout, recordEvent, setEventOutcome } from './fulfil.ts';
import { idOf, stripeClient, toRefund } from './providers/stripe.ts';

// POST /api/payments/stripe/webhook: Stripe's events, verified on the raw body (signature and a 300 s
// tolerance) before anything is read. Only the event types below do anything:
// - checkout sessions: the session is read back from Stripe rather than trusted from the payload
//   (fulfil.ts); a session Stripe does not know is acknowledged and stored as ignored;
// - refunds made in Stripe's dashboard, and their changes (refund.*, charge.refunded): recorded as refunds;
// - disputes (charge.dispute.created): a blocking flag.
// Each event id is stored once: a redelivered event changes nothing and asks Stripe nothing. A failure
// answers 500, so Stripe delivers the event again. Without Stripe in use the path answers 404.

export const WEBHOOK_PATH = '/api/payments/stripe/webhook';
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * Stripe's library only refuses signatures older than the tolerance: one dated ahead (a leaked secret's
 * forgery, or a clock gone wrong) would stay replayable until that date. Allow the same skew either way.
 */
function datedAhead(header: string, now: Date): boolean {
  const t = /(?:^|,)t=(\d{1,12})(?:,|$)/.exec(header);
  return t !== null && Number(t[1]) > now.getTime() / 1000 + SIGNATURE_TOLERANCE_S;
}

const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);
const REFUND_EVENTS = new Set(['refund.created', 'refund.updated', 'refund.failed']);

const LIMIT = { max: 600, windowMs: 60_000, message: 'Too many requests.' };

export async function stripeWebhookRoute(app: FastifyInstance, opts: { deps: FulfilDeps }) {
  const { deps } = opts;
  const { ctx } = deps;
  const { config } = ctx;
  const rateLimited = { config: { rateLimit: rateLimit(config, LIMIT) } };
  const stripe = config.stripe;
  if (deps.provider.name !== 'stripe' || !stripe) {
    // Not in use: a stranger's posts get a plain 404, rate-limited, and no log line each.
    app.all(WEBHOOK_PATH, rateLimited, async (_req, reply) => reply.code(404).send({ error: 'Not found.' }));
    return;
  }
  // The signature covers the exact bytes: keep them (this plugin's scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );
  const verifier = stripeClient({ secretKey: stripe.secretKey, apiBase: stripe.apiBase });

  app.post(WEBHOOK_PATH, rateLimited, async (req, reply) => {
    const signature = req.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (!Buffer.isBuffer(req.body) || typeof signature !== 'string')
        throw new Error('no body or signature');
      if (datedAhead(signature, ctx.now())) throw new Error('signature dated in the future');
      event = verifier.webhooks.constructEvent(
        req.body,
        signature,
        stripe.webhookSecret,
        SIGNATURE_TOLERANCE_S,
      );
    } catch {
      req.log.warn('refused a webhook with a missing or invalid signature');
      return reply.code(400).send({ error: 'Invalid signature.' });
    }
    const source = { eventId: event.id, eventType: event.type };
    const log = req.log;

    if (SESSION_EVENTS.has(event.type)) {
      const session = event.data.object as Stripe.Checkout.Session;
      const result = await fulfilCheckout({ ...deps, log }, session.id, { actor: 'webhook', ...source });
      if (result.unknownSession)
        log.info({ eventId: event.id }, 'webhook for a session Stripe does not know: ignored');
      return reply.send({
        received: true,
        orderId: result.orderId,
        status: result.status,
        duplicate: result.duplicate,
        ...(result.unknownSession ? { ignored: true } : {}),
      });
    }

    if (REFUND_EVENTS.has(event.type)) {
      const refund = toRefund(event.data.object as Stripe.Refund);
      const result = await ctx.db.transaction(async (tx) => {
        if (!(await recordEvent(tx, 'stripe', source))) return { duplicate: true, orderId: null };
        const r = await recordProviderRefund({ ...deps, log }, tx, refund);
        await setEventOutcome(tx, source, r.orderId, r.changed ? 'refund recorded' : 'no change');
        return { duplicate: false, orderId: r.orderId };
      });
      ctx.outbox?.poke();
      return reply.send({ received: true, ...result });
    }

    if (event.type === 'charge.refunded') {
      const charge = event.data.object as Stripe.Charge;
      const paymentIntentId = idOf(charge.payment_intent);
      const seen = await ctx.db
        .select({ id: paymentEvents.id })
        .from(paymentEvents)
        .where(eq(paymentEvents.id, event.id));
      if (seen.length > 0 || !paymentIntentId) {
        return reply.send({ received: true, duplicate: seen.length > 0, orderId: null });
      }
      // Stripe lists a charge's refunds only when asked: ask only when it says more went back than is known.
      const [known] = await ctx.db
        .select({ total: sum(refunds.amountCents) })
        .from(refunds)
        .innerJoin(orders, eq(orders.id, refunds.orderId))
        .where(and(eq(orders.paymentIntentId, paymentIntentId), eq(refunds.status, 'succeeded')));
      const listed =
        charge.amount_refunded > Number(known?.total ?? 0)
          ? await deps.provider.listRefunds(paymentIntentId)
          : [];
      const result = await ctx.db.transaction(async (tx) => {
        if (!(await recordEvent(tx, 'stripe', source)))
          return { duplicate: true, orderId: null as number | null };
        let orderId: number | null = null;
        for (const r of listed)
          orderId = (await recordProviderRefund({ ...deps, log }, tx, r)).orderId ?? orderId;
        await setEventOutcome(
          tx,
          source,
          orderId,
          listed.length > 0 ? `${listed.length} refunds read` : 'no change',
        );
        return { duplicate: false, orderId };
      });
      ctx.outbox?.poke();
      return reply.send({ received: true, ...result });
    }

    if (event.type === 'charge.dispute.created') {
      const dispute = event.data.object as Stripe.Dispute;
      const paymentIntentId = idOf(dispute.payment_intent);
      const chargeId = idOf(dispute.charge);
      const result = await ctx.db.transaction(async (tx) => {
        if (!(await recordEvent(tx, 'stripe', source)))
          return { duplicate: true, orderId: null as number | null };
        const [found] = await tx
          .select({ id: orders.id })
          .from(orders)
          .where(
            or(
              paymentIntentId ? eq(orders.paymentIntentId, paymentIntentId) : sql`false`,
              chargeId ? eq(orders.paymentChargeId, chargeId) : sql`false`,
            ),
          );
        const order = found ? await lockOrder(tx, found.id) : undefined;
        if (!order) {
          await setEventOutcome(tx, source, null, 'no order for this payment');
          return { duplicate: false, orderId: null };
        }
        await raiseFlag(tx, ctx, log, order, {
          kind: 'disputed',
          details: `The customer's bank disputes ${dispute.amount} ${dispute.currency} (reason: ${dispute.reason}). Answer it in Stripe's dashboard; do not ship until it is settled.`,
          blocking: true,
          sourceKey: dispute.id,
          actor: 'webhook',
        });
        await setEventOutcome(tx, source, order.id, 'flagged');
        return { duplicate: false, orderId: order.id };
      });
      ctx.outbox?.poke();
      return reply.send({ received: true, ...result });
    }
    return reply.send({ received: true, ignored: true });
  });
  methodNotAllowed(app, WEBHOOK_PATH, ['POST']);
}
