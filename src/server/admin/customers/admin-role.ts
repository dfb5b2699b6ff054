import { setAdmin } from '../../auth/users-repository.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { changeAccount, recordAccountEvent, refuseLastAdmin } from './account-changes.ts';
import { CUSTOMER_MSG } from './params.ts';

// POST /api/admin/customers/:id/admin { value }: grant or revoke admin access. Never the last admin who can
// log in, never the admin's own (409, nothing changes). The role is read fresh on every request, so the
// change holds from the account's next call on.

export async function setAdminAccess(ctx: AppContext, userId: number, actorId: number, value: boolean) {
  return changeAccount(ctx.db, actorId, userId, async (tx, locked) => {
    const { target } = locked;
    if (value === target.isAdmin)
      throw new HttpError(
        409,
        value ? CUSTOMER_MSG.adminAlready(target.username) : CUSTOMER_MSG.notAdmin(target.username),
      );
    if (!value) {
      refuseLastAdmin(locked);
      if (target.id === actorId) throw new HttpError(409, CUSTOMER_MSG.revokeYourself);
    }
    const now = ctx.now();
    await setAdmin(tx, target.id, value, now);
    await recordAccountEvent(tx, {
      userId: target.id,
      action: value ? 'admin_granted' : 'admin_revoked',
      actorUserId: actorId,
      now,
    });
    return value ? `${target.username} is now an admin.` : `${target.username} is no longer an admin.`;
  });
}
