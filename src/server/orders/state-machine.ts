import { eq } from 'drizzle-orm';
import { type OrderStatus, statusLabel } from '../../shared/catalog.ts';
import type { Db } from '../db/client.ts';
import { type Order, orderEvents, orders } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';

// The order's state machine (docs/domain.md, "Orders"): the one place that says who may move an order from
// where to where, and the one function that moves it. The checkout (payments), the customer's own cancel and
// the back office all call moveOrder inside a transaction that locked the order row (lockOrder), so two
// callers at once make one transition and the loser sees the order as it is now.
//
//   pending --payment--> paid --staff--> queued --staff--> printing --staff--> shipped
//      |                  \______________________|__________________|
//      +--payment--> failed                      +--staff--> cancelled (before it ships)
//      +--payment, customer, system--> cancelled (expired, cancelled by the customer, replaced)
//
// Nothing moves back; `failed`, `cancelled` and `shipped` are final.

/** Who asks: the payment provider's word (webhook, reconcile, success page, simulator), the customer, staff,
 * or the shop itself (a checkout replaced by a newer one). */
export type Role = 'payment' | 'customer' | 'staff' | 'system';

const TRANSITIONS: Record<OrderStatus, Partial<Record<OrderStatus, readonly Role[]>>> = {
  pending: { paid: ['payment'], failed: ['payment'], cancelled: ['payment', 'customer', 'system'] },
  paid: { queued: ['staff'], cancelled: ['staff'] },
  queued: { printing: ['staff'], cancelled: ['staff'] },
  printing: { shipped: ['staff'], cancelled: ['staff'] },
  shipped: {},
  failed: {},
  cancelled: {},
};

/** Staff's production steps, in order. */
const NEXT_STEP: Partial<Record<OrderStatus, OrderStatus>> = {
  paid: 'queued',
  queued: 'printing',
  printing: 'shipped',
};

/** When each status was reached. */
const REACHED_AT = {
  paid: 'paidAt',
  queued: 'queuedAt',
  printing: 'printingAt',
  shipped: 'shippedAt',
  cancelled: 'cancelledAt',
} as const satisfies Partial<Record<OrderStatus, keyof Order>>;

export function isOrderStatus(value: string): value is OrderStatus {
  return Object.hasOwn(TRANSITIONS, value);
}

/** Whether `role` (any role, when not given) may move an order from `from` to `to`. */
export function canMove(from: string, to: OrderStatus, role?: Role): boolean {
  if (!isOrderStatus(from)) return false;
  const roles = TRANSITIONS[from][to];
  return roles !== undefined && (role === undefined || roles.includes(role));
}

/** Where `role` may move an order from `from`. */
export function movesFrom(from: string, role: Role): OrderStatus[] {
  if (!isOrderStatus(from)) return [];
  return (Object.entries(TRANSITIONS[from]) as [OrderStatus, readonly Role[]][])
    .filter(([, roles]) => roles.includes(role))
    .map(([to]) => to);
}

/** Staff's next production step from `from` (paid -> queued -> printing -> shipped), or null. */
export function nextStep(from: string): OrderStatus | null {
  return isOrderStatus(from) ? (NEXT_STEP[from] ?? null) : null;
}

/** Whether the order has left the shop or ended: nothing more can be done to it in production. */
export function isFinal(status: string): boolean {
  return movesFrom(status, 'staff').length === 0 && movesFrom(status, 'payment').length === 0;
}

/** A move the rules refuse: 409 with a sentence staff can act on. */
export class TransitionError extends HttpError {
  constructor(from: string, to: OrderStatus) {
    super(409, transitionMessage(from, to));
  }
}

function transitionMessage(from: string, to: OrderStatus): string {
  const fromLabel = statusLabel(from);
  if (from === to) return `The order is already ${fromLabel}.`;
  if (from === 'pending') return 'The order is waiting for its payment: it cannot be moved until it is paid.';
  if (from === 'shipped') return 'The order has shipped: its status can no longer change.';
  if (from === 'cancelled' || from === 'failed')
    return `The order is ${fromLabel}: its status can no longer change.`;
  const next = nextStep(from);
  if (next && to !== 'cancelled')
    return `An order that is ${fromLabel} can only move to ${statusLabel(next)} (or be cancelled).`;
  return `An order that is ${fromLabel} cannot move to ${statusLabel(to)}.`;
}

/** The order row, locked until the transaction ends; undefined when there is none. */
export async function lockOrder(tx: Db, orderId: number): Promise<Order | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return order;
}

export type Move = {
  role: Role;
  /** What the timeline names: 'admin', 'customer', 'webhook', 'reconcile', 'simulator', 'system'... */
  actor: string;
  actorUserId?: number | null;
  note?: string | null;
  metadata?: Record<string, unknown>;
  now: Date;
  /** Columns set with the move (tracking number, ship-by date, payment facts...). */
  set?: Partial<typeof orders.$inferInsert>;
};

/**
 * Moves a locked order to `to` and records the status event; throws TransitionError when the rules refuse.
 * Returns the order as it now is.
 */
export async function moveOrder(tx: Db, order: Order, to: OrderStatus, move: Move): Promise<Order> {
  if (!canMove(order.status, to, move.role)) throw new TransitionError(order.status, to);
  const reached = (REACHED_AT as Partial<Record<OrderStatus, keyof Order>>)[to];
  const [updated] = await tx
    .update(orders)
    .set({
      ...move.set,
      status: to,
      ...(reached ? { [reached]: move.now } : {}),
      // The hosted checkout cannot be paid any more once the order left `pending`.
      paymentUrl: null,
      updatedAt: move.now,
    })
    .where(eq(orders.id, order.id))
    .returning();
  if (!updated) throw new Error(`order ${order.id} vanished while locked`);
  await tx.insert(orderEvents).values({
    orderId: order.id,
    kind: 'status',
    actor: move.actor,
    actorUserId: move.actorUserId ?? null,
    fromStatus: order.status,
    toStatus: to,
    note: move.note ?? null,
    metadata: move.metadata ?? null,
    createdAt: move.now,
  });
  return updated;
}
