import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { AccountAction } from '../../../shared/admin-customers.ts';
import { MSG } from '../../auth/schemas.ts';
import type { Db } from '../../db/client.ts';
import { accountEvents, type User, users } from '../../db/schema.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { CUSTOMER_MSG } from './params.ts';

// What every account-changing admin call starts with, inside its transaction, and the history row it writes.

export type Locked = {
  actor: User;
  target: User;
  /** Admins who can log in (not disabled), counted under the same lock. */
  enabledAdmins: number;
};

/**
 * Locks, in one statement and in id order, the acting admin's row, the account's and every admin who can log
 * in, and reads them as they are now: two admins acting on each other (or both revoking a third) at once take
 * turns, never deadlock, and the second sees the first's change. 404 when the account is gone; 403 when the
 * admin is no admin any more (revoked or disabled meanwhile): nothing changes.
 */
export async function lockAccounts(tx: Db, actorId: number, targetId: number): Promise<Locked> {
  const rows = await tx
    .select()
    .from(users)
    .where(or(inArray(users.id, [actorId, targetId]), and(eq(users.isAdmin, true), isNull(users.disabledAt))))
    .orderBy(asc(users.id))
    .for('update');
  const actor = rows.find((u) => u.id === actorId);
  const target = rows.find((u) => u.id === targetId);
  if (!target) throw new HttpError(404, CUSTOMER_MSG.notFound);
  if (!actor?.isAdmin || actor.disabledAt) throw new HttpError(403, MSG.adminRequired);
  const enabledAdmins = rows.filter((u) => u.isAdmin && !u.disabledAt).length;
  return { actor, target, enabledAdmins };
}

/**
 * 409 when taking `target`'s admin access away (revoking it, or disabling them) would leave no admin who can
 * log in.
 */
export function refuseLastAdmin({ target, enabledAdmins }: Locked): void {
  if (target.isAdmin && !target.disabledAt && enabledAdmins <= 1)
    throw new HttpError(409, CUSTOMER_MSG.lastAdmin(target.username));
}

/** The account's history row: who did what, when (the same transaction as the change). */
export async function recordAccountEvent(
  tx: Db,
  e: { userId: number; action: AccountAction; actorUserId: number; note?: string | null; now: Date },
): Promise<number> {
  const [row] = await tx
    .insert(accountEvents)
    .values({
      userId: e.userId,
      action: e.action,
      actorUserId: e.actorUserId,
      note: e.note ?? null,
      createdAt: e.now,
    })
    .returning({ id: accountEvents.id });
  if (!row) throw new Error('recordAccountEvent: no row');
  return row.id;
}

/**
 * One account change: the accounts locked (lockAccounts), then `work`, in a READ COMMITTED transaction
 * (whatever the server's default), so a turn taken after a lock sees the last commit.
 */
export function changeAccount<T>(
  db: Db,
  actorId: number,
  targetId: number,
  work: (tx: Db, locked: Locked) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => work(tx, await lockAccounts(tx, actorId, targetId)), {
    isolationLevel: 'read committed',
  });
}
