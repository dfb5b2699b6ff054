import { asc, eq } from 'drizzle-orm';
import type { AdminTimelineEntry } from '../../../shared/admin.ts';
import { statusLabel } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { orderEvents, orderItemEvents, orderItems, paymentEvents, users } from '../../db/schema.ts';

// One timeline of an order, oldest first: its own events (status changes, notes, refunds, flags, mails,
// reprints), its items' events (printed, sent back) and the payment provider's events about it. The text is
// what was recorded (a note, a mail's subject...), never HTML: the panel shows it as text. Three queries.

const SOURCE_ORDER = { p: 0, e: 1, i: 2 } as const;

function eventText(e: { kind: string; note: string | null; toStatus: string | null }): string {
  if (e.note) return e.note;
  if (e.kind === 'status') return `Moved to ${statusLabel(e.toStatus)}`;
  return '';
}

export async function orderTimeline(db: Db, orderId: number): Promise<AdminTimelineEntry[]> {
  const [events, itemEvents, payments] = await Promise.all([
    db
      .select({ e: orderEvents, actorName: users.username })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorUserId))
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(asc(orderEvents.id)),
    db
      .select({ e: orderItemEvents, fileName: orderItems.fileName, actorName: users.username })
      .from(orderItemEvents)
      .innerJoin(orderItems, eq(orderItems.id, orderItemEvents.orderItemId))
      .leftJoin(users, eq(users.id, orderItemEvents.actorUserId))
      .where(eq(orderItemEvents.orderId, orderId))
      .orderBy(asc(orderItemEvents.id)),
    db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId)),
  ]);
  // A reprint is recorded twice (the item's history and the order's timeline): show it once.
  const mirrored = new Set(events.map(({ e }) => Number(e.metadata?.itemEventId)).filter(Number.isInteger));
  const entries: (AdminTimelineEntry & { order: number; seq: number })[] = [
    ...payments.map((p) => ({
      key: `p:${p.id}`,
      at: p.receivedAt.toISOString(),
      kind: 'payment' as const,
      actor: 'payment provider',
      actorName: null,
      fromStatus: null,
      toStatus: null,
      text: p.outcome ? `${p.type}: ${p.outcome}` : p.type,
      visibleToCustomer: false,
      amountCents: null,
      order: SOURCE_ORDER.p,
      seq: 0,
    })),
    ...events.map(({ e, actorName }) => ({
      key: `e${e.id}`,
      at: e.createdAt.toISOString(),
      kind: e.kind,
      actor: e.actor,
      actorName,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      text: eventText(e),
      visibleToCustomer: e.visibleToCustomer,
      amountCents: e.amountCents,
      order: SOURCE_ORDER.e,
      seq: e.id,
    })),
    ...itemEvents
      .filter(({ e }) => !mirrored.has(e.id))
      .map(({ e, fileName, actorName }) => ({
        key: `i${e.id}`,
        at: e.createdAt.toISOString(),
        kind: e.kind,
        actor: e.actorUserId === null ? 'system' : 'admin',
        actorName,
        fromStatus: null,
        toStatus: null,
        text: e.kind === 'printed' ? `${fileName} printed` : `Reprint of ${fileName}: ${e.reason ?? ''}`,
        visibleToCustomer: false,
        amountCents: null,
        order: SOURCE_ORDER.i,
        seq: e.id,
      })),
  ];
  entries.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order || a.seq - b.seq);
  return entries.map(({ order: _o, seq: _s, ...entry }) => entry);
}
