import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import type { CartQuotePayload } from '../../shared/checkout.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, parseBody, rateLimit } from '../http/route-helpers.ts';
import { resolveViewer } from '../models/owner.ts';
import { dollars } from '../pricing/price-model.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { loadShopSettings } from '../settings/shop-settings.ts';
import { quoteDelivery } from '../shipping/offers.ts';
import { lastShipTo, taxModeOf } from '../shipping/tax-mode.ts';
import { checkCartLines } from './cart-lines.ts';

// POST /api/cart/quote: the server's price of every cart line, from the same check and price as the
// checkout, so the cart shows, line by line and in total, what the checkout will charge. Anyone may ask (a
// visitor's cart is priced too), so it is limited per address: a cart asks once a change, a moment after.

export const CART_QUOTE_LIMIT = {
  max: 60,
  windowMs: 60_000,
  message: 'Too many price requests. Please wait a moment and try again.',
};

export async function cartQuoteRoute(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.post(
    API.cartQuote.path,
    { config: { rateLimit: rateLimit(ctx.config, CART_QUOTE_LIMIT) } },
    async (req, reply) => {
      const { items, shipTo } = parseBody(API.cartQuote.body, req.body);
      const viewer = await resolveViewer(req);
      const checks = await checkCartLines(
        {
          db: ctx.db,
          viewer,
          buildVolumeMm: (await loadShopSettings(ctx.db, ctx.config)).buildVolumeMm,
          pricing: await loadPricingSettings(ctx.db),
        },
        items.map((i) => ({ ...i, filePath: i.modelId })),
      );
      let totalCents = 0;
      let ownHours = 0;
      const lines = checks.map((c) => {
        if (!c.ok) return { error: c.error };
        totalCents += c.line.price.lineCents;
        ownHours += c.line.price.hours * c.line.quantity;
        return {
          unitPrice: dollars(c.line.price.unitCents),
          lineTotal: dollars(c.line.price.lineCents),
          discountPercent: c.line.price.discountPercent,
        };
      });
      const anyOrderable = checks.some((c) => c.ok);
      const delivery = anyOrderable
        ? await quoteDelivery(ctx.db, {
            shipTo: shipTo ?? (await lastShipTo(ctx.db, viewer.userId)),
            subtotalCents: totalCents,
            ownHours,
            now: ctx.now(),
          })
        : null;
      const payload: CartQuotePayload = {
        currency: 'usd',
        lines,
        total: dollars(totalCents),
        shipping: delivery ? { shipTo: delivery.shipTo, options: delivery.options } : null,
        tax: taxModeOf(ctx.config),
      };
      return reply.header('cache-control', 'no-store').send(payload);
    },
  );
  methodNotAllowed(app, API.cartQuote.path, ['POST']);
}
