import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { methodNotAllowed } from '../http/route-helpers.ts';
import { type FulfilDeps, fulfilCheckout, recordRefund } from './fulfil.ts';
import { stripeClient } from './providers/stripe.ts';

// POST /api/payments/stripe/webhook: Stripe's events, verified on the raw body (signature and a 300 s
// tolerance) before anything is read. Only the event types below do anything, and for checkout events the
// session is read back from Stripe rather than trusted from the payload. A failure answers 500, so Stripe
// delivers the event again; an event applied before answers 200 and changes nothing.

export const WEBHOOK_PATH = '/api/payments/stripe/webhook';
export const SIGNATURE_TOLERANCE_S = 300;

const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

export async function stripeWebhookRoute(app: FastifyInstance, opts: { deps: FulfilDeps }) {
  const { deps } = opts;
  const { config } = deps.ctx;
  // The signature covers the exact bytes: keep them (this plugin's scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );
  const secret = config.stripe?.webhookSecret;
  const verifier = stripeClient({
    secretKey: config.stripe?.secretKey ?? 'sk_unused',
    apiBase: config.stripe?.apiBase,
  });

  app.post(WEBHOOK_PATH, async (req, reply) => {
    if (!secret || deps.provider.name !== 'stripe') {
      req.log.error('a Stripe webhook arrived but STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is not set');
      return reply.code(500).send({ error: 'Webhooks are not configured.' });
    }
    const signature = req.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (!Buffer.isBuffer(req.body) || typeof signature !== 'string')
        throw new Error('no body or signature');
      event = verifier.webhooks.constructEvent(req.body, signature, secret, SIGNATURE_TOLERANCE_S);
    } catch {
      req.log.warn('refused a webhook with a missing or invalid signature');
      return reply.code(400).send({ error: 'Invalid signature.' });
    }

    if (SESSION_EVENTS.has(event.type)) {
      const session = event.data.object as Stripe.Checkout.Session;
      const result = await fulfilCheckout(deps, session.id, {
        actor: 'webhook',
        eventId: event.id,
        eventType: event.type,
      });
      return reply.send({
        received: true,
        orderId: result.orderId,
        status: result.status,
        duplicate: result.duplicate,
      });
    }
    if (event.type === 'charge.refunded') {
      const charge = event.data.object as Stripe.Charge;
      const paymentIntentId =
        typeof charge.payment_intent === 'string'
          ? charge.payment_intent
          : (charge.payment_intent?.id ?? null);
      const result = await recordRefund(deps.ctx, 'stripe', event, {
        paymentIntentId,
        amountRefundedCents: charge.amount_refunded,
      });
      return reply.send({ received: true, orderId: result.orderId });
    }
    return reply.send({ received: true, ignored: true });
  });
  methodNotAllowed(app, WEBHOOK_PATH, ['POST']);
}
