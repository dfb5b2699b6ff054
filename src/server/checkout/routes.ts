import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../shared/api.ts';
import { type CheckoutStatusPayload, checkoutSessionPayload } from '../../shared/checkout.ts';
import { requireUser, requireVerifiedUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { orderItems, orders } from '../db/schema.ts';
import { methodNotAllowed, NO_STORE, rateLimit } from '../http/route-helpers.ts';
import { createPreviewLinks } from '../models/preview-links.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { cancelOwnOrder } from './cancel-order.ts';
import { cartQuoteRoute } from './cart-quote-route.ts';
import { createCheckout } from './create-checkout.ts';
import { type FulfilDeps, fulfilCheckout } from './fulfil.ts';
import { cachedInstallId } from './install-id.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { startReconcileJob } from './reconcile.ts';
import { simulatorRoutes } from './simulator/routes.ts';
import { stripeWebhookRoute } from './webhook-route.ts';

// The checkout feature: the cart's server prices, creating the checkout, the success page's status call,
// a customer cancelling their unpaid order, the simulator's hosted page, the Stripe webhook and the
// reconcile job, all over one PaymentProvider.

export type CheckoutPluginOptions = { deps: FulfilDeps };

const statusQuery = z.object({
  session_id: z.string().regex(/^[\w-]{1,255}$/, 'The session id is not valid.'),
});
const orderParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** What every payment feature shares (the checkout, the admin's refunds): built once per app (app.ts). */
export function paymentDeps(ctx: AppContext, provider: PaymentProvider, log: FulfilDeps['log']): FulfilDeps {
  return {
    ctx,
    provider,
    previewLinks: createPreviewLinks(ctx.db, ctx.config.publicUrl),
    installId: cachedInstallId(ctx.db),
    log,
  };
}

export async function checkoutPlugin(app: FastifyInstance, opts: CheckoutPluginOptions) {
  const { deps } = opts;
  const { ctx } = deps;

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
      const body = (req.body ?? {}) as { cartItems?: unknown; shipTo?: unknown };
      const session = await createCheckout({ ...deps, log: req.log }, req.user!, body.cartItems, body.shipTo);
      return reply.header('cache-control', NO_STORE).send(checkoutSessionPayload.parse(session));
    },
  );
  methodNotAllowed(app, API.createCheckout.path, ['POST']);

  // The success page asks here, so a late webhook does not leave the customer waiting. Only the caller's
  // own order answers: another customer's session id is a 404 like an unknown one.
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
        .select({ id: orders.id, status: orders.status, provider: orders.paymentProvider })
        .from(orders)
        .where(and(eq(orders.paymentSessionId, sessionId), eq(orders.userId, req.user!.id)))
        .limit(1);
      if (!order) throw new HttpError(404, 'Order not found.');
      let status = order.status;
      if (status === 'pending') {
        try {
          status =
            (await fulfilCheckout({ ...deps, log: req.log }, sessionId, { actor: 'customer' })).status ??
            status;
        } catch (err) {
          // The provider is away: answer what is known; the webhook or the reconcile job finishes it.
          req.log.warn({ err, orderId: order.id }, 'could not ask the payment provider');
        }
      }
      const items = await ctx.db
        .select({
          modelId: orderItems.modelId,
          color: orderItems.color,
          strength: orderItems.strength,
          quantity: orderItems.quantity,
        })
        .from(orderItems)
        .where(eq(orderItems.orderId, order.id))
        .orderBy(asc(orderItems.id));
      const payload: CheckoutStatusPayload = {
        orderId: order.id,
        status,
        testMode: order.provider === 'simulator',
        items,
      };
      return reply.header('cache-control', NO_STORE).send(payload);
    },
  );
  methodNotAllowed(app, API.checkoutStatus.path, ['GET']);

  app.post(
    API.cancelOrder.path,
    {
      preHandler: requireUser,
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 30,
          windowMs: 10 * 60_000,
          message: 'Too many requests. Please wait before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const parsed = orderParams.safeParse(req.params);
      if (!parsed.success) throw new HttpError(404, 'Order not found.');
      const result = await cancelOwnOrder({ ...deps, log: req.log }, req.user!.id, parsed.data.id);
      return reply.header('cache-control', NO_STORE).send(result);
    },
  );
  methodNotAllowed(app, API.cancelOrder.path, ['POST']);

  await app.register(simulatorRoutes, { deps });
  await app.register(stripeWebhookRoute, { deps });

  const job = startReconcileJob(deps, app.log);
  app.addHook('onClose', () => job.stop());
}
