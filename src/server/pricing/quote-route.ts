import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import type { QuotePayload, QuoteRequest } from '../../shared/models.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, rateLimit } from '../http/route-helpers.ts';
import { findReadableModel } from '../models/access.ts';
import { resolveViewer } from '../models/owner.ts';
import type { LinePrice } from './price.ts';
import { dollars, priceModelLine, round } from './price-model.ts';
import { loadPricingSettings } from './settings-repository.ts';

// POST /api/quote: the price of one line (model, color, strength, quantity) with its breakdown. The model
// must be one the caller may see (else 404); quantity, strength and color are checked by quoteRequest.

export function toQuotePayload(request: QuoteRequest, price: LinePrice): QuotePayload {
  return {
    modelId: request.modelId,
    color: request.color,
    strength: request.strength,
    quantity: request.quantity,
    currency: 'usd',
    unitPrice: dollars(price.unitCents),
    lineTotal: dollars(price.lineCents),
    breakdown: {
      printedVolumeCm3: round(price.printedVolumeCm3, 2),
      grams: round(price.grams, 1),
      hours: round(price.hours, 2),
      setupFee: round(price.setupCents / 100, 2),
      material: round(price.materialCents / 100, 2),
      machine: round(price.machineCents / 100, 2),
      minimumApplied: price.minimumApplied,
      discountPercent: price.discountPercent,
    },
  };
}

/** Per address: a model card asks once a pick changes; far below this for people. */
export const QUOTE_LIMIT = {
  max: 240,
  windowMs: 60_000,
  message: 'Too many price requests. Please wait a moment and try again.',
};

export async function quoteRoute(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.post(
    API.quote.path,
    { config: { rateLimit: rateLimit(ctx.config, QUOTE_LIMIT) } },
    async (req, reply) => {
      const request = API.quote.body.parse(req.body ?? {});
      const model = await findReadableModel(ctx.db, request.modelId, await resolveViewer(req));
      const price = priceModelLine(model, request, await loadPricingSettings(ctx.db));
      return reply.header('cache-control', 'no-store').send(toQuotePayload(request, price));
    },
  );
  methodNotAllowed(app, API.quote.path, ['POST']);
}
