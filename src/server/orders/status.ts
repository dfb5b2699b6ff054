import type { OrderStatus } from '../../shared/catalog.ts';

// Which way an order may move (docs/domain.md). Only the payment provider's verified word moves an order out
// of `pending`; staff move it along production and may cancel before it ships. Nothing moves back.

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'failed', 'cancelled'],
  paid: ['queued', 'cancelled'],
  queued: ['printing', 'cancelled'],
  printing: ['shipped', 'cancelled'],
  shipped: [],
  failed: [],
  cancelled: [],
};

export function canMove(from: string, to: OrderStatus): boolean {
  return (NEXT as Record<string, readonly OrderStatus[]>)[from]?.includes(to) ?? false;
}
