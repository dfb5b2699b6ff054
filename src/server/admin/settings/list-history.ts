import { count, desc, eq } from 'drizzle-orm';
import type { AdminSettingsHistoryPayload } from '../../../shared/admin-settings.ts';
import type { Db } from '../../db/client.ts';
import { settingsHistory, users } from '../../db/schema.ts';

// GET /api/admin/settings/history: every recorded change, newest first, a page at a time, with the admin's
// username.

export const HISTORY_PAGE_SIZE = 50;

export async function listSettingsHistory(
  db: Db,
  query: { page: number; section?: string | undefined },
): Promise<AdminSettingsHistoryPayload> {
  const where = query.section ? eq(settingsHistory.section, query.section) : undefined;
  const [total] = await db.select({ n: count() }).from(settingsHistory).where(where);
  const rows = await db
    .select({
      id: settingsHistory.id,
      section: settingsHistory.section,
      key: settingsHistory.key,
      oldValue: settingsHistory.oldValue,
      newValue: settingsHistory.newValue,
      changedBy: users.username,
      changedAt: settingsHistory.changedAt,
    })
    .from(settingsHistory)
    .leftJoin(users, eq(users.id, settingsHistory.changedBy))
    .where(where)
    .orderBy(desc(settingsHistory.changedAt), desc(settingsHistory.id))
    .limit(HISTORY_PAGE_SIZE)
    .offset((query.page - 1) * HISTORY_PAGE_SIZE);
  return {
    changes: rows.map((r) => ({ ...r, changedAt: r.changedAt.toISOString() })),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: HISTORY_PAGE_SIZE,
  };
}
