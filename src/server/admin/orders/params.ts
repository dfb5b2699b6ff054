import { z } from 'zod';
import { HttpError } from '../../plugins/error-handler.ts';

// The path parameters of the admin's order routes. An id that is not a positive 32-bit integer names no
// order, item or flag: 404 like an unknown one, never a 400 that tells the two apart.

export const ADMIN_MSG = {
  orderNotFound: 'Order not found.',
  itemNotFound: 'That item is not part of this order.',
  flagNotFound: 'That flag is not on this order.',
  flagResolved: 'This flag was resolved already.',
  blocked: (label: string) =>
    `The order is flagged "${label}": resolve the flag before moving it on (cancelling still works).`,
  reprintStatus: (label: string) =>
    `The order is ${label}: only an item of a queued or printing order can be printed again.`,
  printedStatus: (label: string) => `The order is ${label}: items are marked printed while it is printing.`,
  alreadyPrinted: 'This item is marked printed already.',
  notQueued: (label: string) => `The order is ${label}: only a queued order can start printing.`,
} as const;

const dbId = z.coerce.number().int().positive().max(2_147_483_647);

function idOf(value: unknown, notFound: string): number {
  const parsed = dbId.safeParse(value);
  if (!parsed.success) throw new HttpError(404, notFound);
  return parsed.data;
}

type Params = Record<string, unknown>;

export function orderIdOf(params: unknown): number {
  return idOf((params as Params).id, ADMIN_MSG.orderNotFound);
}

export function itemIdOf(params: unknown): number {
  return idOf((params as Params).itemId, ADMIN_MSG.itemNotFound);
}

export function flagIdOf(params: unknown): number {
  return idOf((params as Params).flagId, ADMIN_MSG.flagNotFound);
}
