import { z } from 'zod';
import { COLOR_HEXES, MAX_ITEM_QUANTITY, MAX_STRENGTH, MIN_STRENGTH } from './catalog.ts';

// Payloads of the upload and quote endpoints (docs/api.md), shared by the server and the client.

export const warningCode = z.enum(['not_watertight', 'inside_out', 'maybe_inches', 'too_big']);
export type WarningCode = z.infer<typeof warningCode>;

export const modelWarning = z.object({ code: warningCode, message: z.string() });
export type ModelWarning = z.infer<typeof modelWarning>;

const xyz = z.object({ x: z.number(), y: z.number(), z: z.number() });

/** Prices in dollars (2 decimals) by strength 1-5, at quantity 1 in the default color. */
export const pricesByStrength = z.object({
  '1': z.number(),
  '2': z.number(),
  '3': z.number(),
  '4': z.number(),
  '5': z.number(),
});

export const modelPayload = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.enum(['stl', 'obj', '3mf']),
  triangles: z.number().int(),
  volumeCm3: z.number(),
  areaCm2: z.number(),
  /** Millimetres, after `scale`. */
  dimensions: xyz,
  scale: z.number(),
  watertight: z.boolean(),
  /** False when the model does not fit the build volume: it cannot be added to the cart. */
  fits: z.boolean(),
  warnings: z.array(modelWarning),
  previewImage: z.string(),
  prices: pricesByStrength,
});
export type ModelPayload = z.infer<typeof modelPayload>;

export const strength = z.coerce.number().int().min(MIN_STRENGTH).max(MAX_STRENGTH);
export const quantity = z.coerce.number().int().min(1).max(MAX_ITEM_QUANTITY);

export const quoteRequest = z.object({
  modelId: z.string().min(1).max(64),
  color: z.enum(COLOR_HEXES).default('#007bff'),
  strength: strength.default(3),
  quantity: quantity.default(1),
});
export type QuoteRequest = z.infer<typeof quoteRequest>;

export const quoteBreakdown = z.object({
  printedVolumeCm3: z.number(),
  grams: z.number(),
  hours: z.number(),
  setupFee: z.number(),
  material: z.number(),
  machine: z.number(),
  minimumApplied: z.boolean(),
  discountPercent: z.number(),
});

export const quotePayload = z.object({
  modelId: z.string(),
  color: z.string(),
  strength: z.number(),
  quantity: z.number(),
  currency: z.literal('usd'),
  unitPrice: z.number(),
  lineTotal: z.number(),
  breakdown: quoteBreakdown,
});
export type QuotePayload = z.infer<typeof quotePayload>;

export const scaleRequest = z.object({ factor: z.union([z.literal(25.4), z.literal(1 / 25.4)]) });

/** GET /api/models: the caller's stored models, newest first. */
export const modelListPayload = z.object({ models: z.array(modelPayload) });
export type ModelListPayload = z.infer<typeof modelListPayload>;
