import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../shared/api.ts';
import { type CheckoutStatusPayload, checkoutSessionPayload } from '../../shared/checkout.ts';
import { requireUser, requireVerifiedUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { orders } from '../db/schema.ts';
import { methodNotAllowed, NO_STORE, rateLimit } from '../http/route-helpers.ts';
import { createPreviewLinks } from '../models/preview-links.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { cartQuoteRoute } from './cart-quote-route.ts';
import { createCheckout } from './create-checkout.ts';
import { type FulfilDeps, fulfilCheckout } from './fulfil.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { openPaymentProvider } from './providers/open-provider.ts';
import { startReconcileJob } from './reconcile.ts';
import { simulatorRoutes } from './simulator/routes.ts';
import { stripeWebhookRoute } from './webhook-route.ts';

// The checkout feature: the cart's server prices, creating the checkout, the success page's status call,
// the simulator's hosted page, the Stripe webhook and the reconcile job, all over one PaymentProvider.

export type CheckoutPluginOptions = { ctx: AppContext; provider?: PaymentProvider };

const statusQuery = z.object({
  session_id: z.string().regex(/^[\w-]{1,255}$/, 'The session id is not valid.'),
});

export async function checkoutPlugin(app: FastifyInstance, opts: CheckoutPluginOptions) {
  const { ctx } = opts;
  const provider = opts.provider ?? openPaymentProvider(ctx);
  const deps: FulfilDeps = { ctx, provider, previewLinks: createPreviewLinks(ctx.db, ctx.config.publicUrl) };

  await app.register(cartQuoteRoute, { ctx });

  app.post(
    API.createCheckout.path,
    {
      preHandler: requireVerifiedUser,
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 30,
          windowMs: 10 * 60_000,
          message: 'Too many checkout attempts. Please wait a few minutes and try again.',
        }),
      },
    },
    async (req, reply) => {
      const body = (req.body ?? {}) as { cartItems?: unknown };
      const session = await createCheckout({ ...deps, log: req.log }, req.user!, body.cartItems);
      return reply.header('cache-control', NO_STORE).send(checkoutSessionPayload.parse(session));
    },
  );
  methodNotAllowed(app, API.createCheckout.path, ['POST']);

  // The success page asks here, so a late webhook does not leave the customer waiting.
  app.get(
    API.checkoutStatus.path,
    {
      preHandler: requireUser,
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 120,
          windowMs: 60_000,
          message: 'Too many requests. Please wait before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const { session_id: sessionId } = statusQuery.parse(req.query ?? {});
      const [order] = await ctx.db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.paymentSessionId, sessionId), eq(orders.userId, req.user!.id)))
        .limit(1);
      if (!order) throw new HttpError(404, 'Order not found.');
      let status = order.status;
      if (status === 'pending') {
        try {
          status = (await fulfilCheckout(deps, sessionId, { actor: 'customer' })).status ?? status;
        } catch (err) {
          // The provider is away: answer what is known; the webhook or the reconcile job finishes it.
          req.log.warn({ err, orderId: order.id }, 'could not ask the payment provider');
        }
      }
      const payload: CheckoutStatusPayload = { orderId: order.id, status };
      return reply.header('cache-control', NO_STORE).send(payload);
    },
  );
  methodNotAllowed(app, API.checkoutStatus.path, ['GET']);

  await app.register(simulatorRoutes, { deps });
  await app.register(stripeWebhookRoute, { deps });

  const job = startReconcileJob(deps, app.log);
  app.addHook('onClose', () => job.stop());
}
