import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../../shared/api.ts';
import type { SimulatorSessionPayload } from '../../../shared/checkout.ts';
import { getSessionUser } from '../../auth/session-plugin.ts';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { methodNotAllowed, rateLimit } from '../../http/route-helpers.ts';
import { dollars } from '../../pricing/price-model.ts';
import { type FulfilDeps, fulfilCheckout } from '../fulfil.ts';
import { findSimulatorSession, statusAt } from '../providers/simulator.ts';
import { PAY_MSG, PayRefusal, paySimulatorSession } from './pay.ts';

// The simulator's hosted checkout, behind its page /pay/simulator/:sessionId (TEST MODE): what to show,
// and Pay, which records the card's answer and then goes through the same fulfilment as Stripe's events.
// As with Stripe, the session id in the address is what opens the page.

const params = z.object({ id: z.string().max(64) });

/** The address of the user's last paid order, to fill the form in: a returning customer types nothing. */
async function lastAddress(db: Db, userId: number): Promise<SimulatorSessionPayload['prefill']> {
  const [last] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.paidAt), isNotNull(orders.shippingLine1)))
    .orderBy(desc(orders.paidAt))
    .limit(1);
  if (!last) return null;
  return {
    name: last.shippingName ?? '',
    line1: last.shippingLine1 ?? '',
    line2: last.shippingLine2 ?? '',
    city: last.shippingCity ?? '',
    state: last.shippingState ?? '',
    postalCode: last.shippingPostalCode ?? '',
    country: last.shippingCountry ?? '',
  };
}

export async function simulatorRoutes(app: FastifyInstance, opts: { deps: FulfilDeps }) {
  const { deps } = opts;
  const { ctx } = deps;
  if (deps.provider.name !== 'simulator') return;

  app.get(API.simulatorSession.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const row = await findSimulatorSession(ctx.db, id);
    if (!row) return reply.code(404).send({ error: PAY_MSG.notFound });
    const viewer = await getSessionUser(req);
    const [order] = await ctx.db
      .select({ userId: orders.userId })
      .from(orders)
      .where(eq(orders.id, row.orderId));
    const prefill = viewer && order?.userId === viewer.id ? await lastAddress(ctx.db, viewer.id) : null;
    const payload: SimulatorSessionPayload = {
      id: row.id,
      shopName: ctx.config.shopName,
      status: statusAt(row, ctx.now()),
      currency: row.currency,
      total: dollars(row.amountTotalCents),
      subtotal: dollars(row.amountSubtotalCents ?? row.amountTotalCents),
      shipTo: row.shipTo === 'CA' ? 'CA' : 'US',
      shippingOptions: row.shippingOptions.map((o) => ({
        id: o.id,
        name: o.name,
        amount: dollars(o.amountCents),
        minDays: o.minDays,
        maxDays: o.maxDays,
      })),
      lines: row.lines.map((l) => ({
        name: l.name,
        description: l.description,
        imageUrl: l.imageUrl,
        amount: dollars(l.amountCents),
      })),
      cancelUrl: row.cancelUrl,
      successUrl: row.successUrl,
      expiresAt: row.expiresAt.toISOString(),
      prefill,
    };
    return reply.header('cache-control', 'no-store').send(payload);
  });

  app.post(
    API.simulatorPay.path,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 30,
          windowMs: 10 * 60_000,
          message: 'Too many payment attempts. Please wait a few minutes and try again.',
        }),
      },
    },
    async (req, reply) => {
      const { id } = params.parse(req.params);
      const parsed = API.simulatorPay.body.safeParse(req.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply
          .code(400)
          .send({ error: issue?.message ?? 'The payment is not valid.', field: issue?.path.join('.') });
      }
      try {
        await paySimulatorSession(ctx.db, id, parsed.data, ctx.now());
      } catch (err) {
        if (!(err instanceof PayRefusal)) throw err;
        return reply
          .code(err.statusCode)
          .send({ error: err.message, ...(err.field ? { field: err.field } : {}) });
      }
      try {
        // The simulator's "event": one per session, so a repeated Pay is applied once.
        await fulfilCheckout(deps, id, {
          actor: 'simulator',
          eventId: `evt_sim_${id}_completed`,
          eventType: 'checkout.session.completed',
        });
      } catch (err) {
        // Paid but not yet fulfilled: the success page's status call and the reconcile job finish it.
        req.log.error({ err }, 'simulator payment recorded, fulfilment deferred');
      }
      const row = await findSimulatorSession(ctx.db, id);
      return reply.header('cache-control', 'no-store').send({ redirectUrl: row?.successUrl ?? '/orders' });
    },
  );

  methodNotAllowed(app, API.simulatorSession.path, ['GET']);
  methodNotAllowed(app, API.simulatorPay.path, ['POST']);
}
