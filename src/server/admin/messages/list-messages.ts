import { asc, count, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AdminMessage, AdminMessagesFilter } from '../../../shared/admin-messages.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages, users } from '../../db/schema.ts';

// GET /api/admin/messages: the contact form's messages, unhandled first, then newest first. Two queries
// whatever the page holds: the counts (the filter's total and the unhandled in all) and the page's rows
// with the sender's account and the admin who handled each (two joins on users).

const sender = alias(users, 'sender');
const handler = alias(users, 'handler');

function handledCondition(handled: boolean | undefined): SQL | undefined {
  if (handled === undefined) return undefined;
  return handled ? isNotNull(contactMessages.handledAt) : isNull(contactMessages.handledAt);
}

/** The messages' rows as the panel shows them, with `where` (all when undefined). */
function selectMessages(db: Db, where: SQL | undefined) {
  return db
    .select({
      id: contactMessages.id,
      name: contactMessages.name,
      email: contactMessages.email,
      message: contactMessages.message,
      userId: sender.id,
      username: sender.username,
      createdAt: contactMessages.createdAt,
      handledAt: contactMessages.handledAt,
      handledBy: handler.username,
    })
    .from(contactMessages)
    .leftJoin(sender, eq(sender.id, contactMessages.userId))
    .leftJoin(handler, eq(handler.id, contactMessages.handledBy))
    .where(where);
}

type MessageRow = Awaited<ReturnType<typeof selectMessages>>[number];

function toMessage(r: MessageRow): AdminMessage {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    message: r.message,
    user: r.userId !== null && r.username !== null ? { id: r.userId, username: r.username } : null,
    createdAt: r.createdAt.toISOString(),
    handledAt: r.handledAt?.toISOString() ?? null,
    // A handled message whose admin's account is gone says so by null.
    handledBy: r.handledAt ? r.handledBy : null,
  };
}

/** Unhandled messages in all: the panel's menu shows the count. */
export async function unhandledCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contactMessages)
    .where(isNull(contactMessages.handledAt));
  return row?.n ?? 0;
}

/** One message as the panel shows it, or null. */
export async function messageById(db: Db, id: number): Promise<AdminMessage | null> {
  const [row] = await selectMessages(db, eq(contactMessages.id, id));
  return row ? toMessage(row) : null;
}

export async function listMessages(db: Db, filter: AdminMessagesFilter) {
  const where = handledCondition(filter.handled);
  const [counts] = await db
    .select({
      total: where ? sql<number>`count(*) filter (where ${where})`.mapWith(Number) : count(),
      unhandled: sql<number>`count(*) filter (where ${contactMessages.handledAt} is null)`.mapWith(Number),
    })
    .from(contactMessages);
  const rows = await selectMessages(db, where)
    .orderBy(
      asc(sql`${contactMessages.handledAt} is not null`),
      desc(contactMessages.createdAt),
      desc(contactMessages.id),
    )
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return {
    messages: rows.map(toMessage),
    total: counts?.total ?? 0,
    unhandled: counts?.unhandled ?? 0,
    page: filter.page,
    pageSize: filter.pageSize,
  };
}
