import type { ModelPayload, QuotePayload } from '../../shared/models.ts';

// Light checks of the server's answers (the full zod schemas stay on the server; the upload chunk carries
// only zod/mini, for what it reads back from storage): enough that a changed contract shows a clear
// message instead of a broken card.

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isXyz(v: unknown): boolean {
  return isObject(v) && isNumber(v.x) && isNumber(v.y) && isNumber(v.z);
}

export function readModel(data: unknown): ModelPayload | null {
  if (!isObject(data)) return null;
  const { id, fileName, dimensions, prices, warnings, previewImage, volumeCm3 } = data;
  if (typeof id !== 'string' || !id || typeof fileName !== 'string') return null;
  if (!isXyz(dimensions) || !isNumber(volumeCm3) || typeof previewImage !== 'string') return null;
  if (!isObject(prices) || !['1', '2', '3', '4', '5'].every((k) => isNumber(prices[k]))) return null;
  if (!Array.isArray(warnings)) return null;
  const model = data as ModelPayload;
  return {
    ...model,
    fits: model.fits !== false,
    warnings: warnings.filter(
      (w): w is ModelPayload['warnings'][number] => isObject(w) && typeof w.message === 'string',
    ),
  };
}

export function readQuote(data: unknown): QuotePayload | null {
  if (!isObject(data) || !isNumber(data.unitPrice) || !isNumber(data.lineTotal)) return null;
  return data as QuotePayload;
}
