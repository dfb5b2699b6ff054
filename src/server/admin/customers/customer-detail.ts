import { count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type AdminCustomerDetail,
  type AdminCustomerOrder,
  CUSTOMER_EVENTS_SHOWN,
  CUSTOMER_ORDERS_SHOWN,
} from '../../../shared/admin-customers.ts';
import { SESSION_IDLE_MS } from '../../auth/session-service.ts';
import type { Db } from '../../db/client.ts';
import { accountEvents, orders, sessions, users } from '../../db/schema.ts';
import { isTestOrder } from '../../orders/order-mails.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { customerRow, orderCountOf, spentCentsOf } from './list-customers.ts';
import { CUSTOMER_MSG } from './params.ts';

// GET /api/admin/customers/:id: the account, its orders (newest first) and what staff did to it, with who.

const actor = alias(users, 'actor');

function isLive(s: { expiresAt: Date; lastSeenAt: Date }, now: Date): boolean {
  return s.expiresAt.getTime() > now.getTime() && s.lastSeenAt.getTime() + SESSION_IDLE_MS > now.getTime();
}

export async function customerDetail(
  db: Db,
  userId: number,
  viewerId: number,
  now: Date,
): Promise<AdminCustomerDetail | null> {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      isAdmin: users.isAdmin,
      disabledAt: users.disabledAt,
      createdAt: users.createdAt,
      orderCount: orderCountOf,
      spentCents: spentCentsOf,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const [all] = await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  const live = await db
    .select({ expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  const orderRows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      status: orders.status,
      totalCents: orders.totalCents,
      refundedCents: orders.amountRefundedCents,
      currency: orders.currency,
      paymentProvider: orders.paymentProvider,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(CUSTOMER_ORDERS_SHOWN);
  const events = await db
    .select({
      id: accountEvents.id,
      action: accountEvents.action,
      actorName: actor.username,
      note: accountEvents.note,
      at: accountEvents.createdAt,
    })
    .from(accountEvents)
    .leftJoin(actor, eq(actor.id, accountEvents.actorUserId))
    .where(eq(accountEvents.userId, userId))
    .orderBy(desc(accountEvents.createdAt), desc(accountEvents.id))
    .limit(CUSTOMER_EVENTS_SHOWN);
  return {
    customer: {
      ...customerRow(user, user),
      verifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
      disabledAt: user.disabledAt?.toISOString() ?? null,
      // An ended row is deleted only when its cookie comes back; it is not a session any more.
      openSessions: live.filter((s) => isLive(s, now)).length,
      allOrders: all?.n ?? 0,
    },
    orders: orderRows.map(
      (o): AdminCustomerOrder => ({
        id: o.id,
        createdAt: o.createdAt.toISOString(),
        status: o.status as AdminCustomerOrder['status'],
        totalCents: o.totalCents,
        refundedCents: o.refundedCents,
        currency: o.currency,
        testMode: isTestOrder(o),
      }),
    ),
    events: events.map((e) => ({ ...e, at: e.at.toISOString() })),
    isYou: userId === viewerId,
  };
}

export async function customerDetailOr404(db: Db, userId: number, viewerId: number, now: Date) {
  const detail = await customerDetail(db, userId, viewerId, now);
  if (!detail) throw new HttpError(404, CUSTOMER_MSG.notFound);
  return detail;
}
