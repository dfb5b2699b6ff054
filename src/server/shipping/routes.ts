import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import type { ShopInfoPayload } from '../../shared/shipping.ts';
import { stripeMode } from '../checkout/providers/stripe.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed } from '../http/route-helpers.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { shopPricingOf } from '../pricing/shop-pricing.ts';
import { loadShippingSettings } from './settings-repository.ts';
import { taxModeOf } from './tax-mode.ts';

// GET /api/shop: what any page may say about the checkout (the FAQ's shipping methods, the card's and the
// cart's words on taxes, the test mode, the card's minimum price and quantity discounts). Public and free of
// secrets; cached briefly, so a settings change shows within a minute.

export async function shopInfoRoute(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.get(API.shopInfo.path, async (_req, reply) => {
    const payload: ShopInfoPayload = {
      testMode: ctx.config.paymentProvider !== 'stripe',
      paymentMode: ctx.config.stripe ? stripeMode(ctx.config.stripe.secretKey) : 'simulator',
      tax: taxModeOf(ctx.config),
      shipping: await loadShippingSettings(ctx.db),
      pricing: shopPricingOf(await loadPricingSettings(ctx.db)),
    };
    return reply.header('cache-control', 'public, max-age=30').send(payload);
  });
  methodNotAllowed(app, API.shopInfo.path, ['GET']);
}
