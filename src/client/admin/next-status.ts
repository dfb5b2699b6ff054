import type { OrderStatus } from '../../shared/catalog.ts';
import { statusLabel } from '../../shared/catalog.ts';

// Staff's production steps (docs/domain.md, "Orders"): the order detail has them from the server
// (nextStatus); the board's bulk action only has each row's status, and the server still decides.

const NEXT: Partial<Record<OrderStatus, OrderStatus>> = {
  paid: 'queued',
  queued: 'printing',
  printing: 'shipped',
};

export function nextStatusOf(status: OrderStatus): OrderStatus | null {
  return NEXT[status] ?? null;
}

/** The primary button's words for a step. */
export function stepLabel(to: OrderStatus): string {
  switch (to) {
    case 'queued':
      return 'Queue for printing';
    case 'printing':
      return 'Start printing';
    case 'shipped':
      return 'Mark shipped';
    default:
      return `Move to ${statusLabel(to)}`;
  }
}
