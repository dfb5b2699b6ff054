import { useEffect, useState } from 'react';
import type { ColorHex, Strength } from '../../shared/catalog.ts';
import type { QuotePayload } from '../../shared/models.ts';
import { fetchQuote } from './model-api.ts';
import { UPLOAD_MSG } from './upload-messages.ts';

// The server's price for the current picks, asked for a moment after the last change.

export const QUOTE_DELAY_MS = 250;

export type QuoteInput = { modelId: string; color: ColorHex; strength: Strength; quantity: number | null };

export type QuoteState = {
  /** The server's answer for exactly the current input, or null while it is on its way. */
  quote: QuotePayload | null;
  pending: boolean;
  error: string;
};

const keyOf = (q: QuoteInput) => `${q.modelId}|${q.color}|${q.strength}|${q.quantity}`;

export function useQuote(input: QuoteInput): QuoteState {
  const key = keyOf(input);
  const [answer, setAnswer] = useState<{ key: string; quote: QuotePayload | null; error: string } | null>(
    null,
  );
  const { modelId, color, strength, quantity } = input;

  useEffect(() => {
    if (quantity === null) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const result = await fetchQuote({ modelId, color, strength, quantity }, controller.signal);
        if (controller.signal.aborted) return;
        setAnswer(
          result.ok ? { key, quote: result.value, error: '' } : { key, quote: null, error: result.error },
        );
      } catch (err) {
        if (controller.signal.aborted) return;
        console.warn('Quote failed:', err);
        setAnswer({ key, quote: null, error: UPLOAD_MSG.quoteFailed });
      }
    }, QUOTE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, modelId, color, strength, quantity]);

  const current = answer?.key === key ? answer : null;
  return {
    quote: current?.quote ?? null,
    pending: quantity !== null && current === null,
    error: current?.error ?? '',
  };
}
