import { z } from 'zod';
import { HttpError } from '../../plugins/error-handler.ts';

// The customers routes' path parameter and their sentences. An id that is not a positive 32-bit integer
// names no account: 404 like an unknown one.

export const CUSTOMER_MSG = {
  notFound: 'Customer not found.',
  verifiedAlready: 'This email address is verified already.',
  resendVerified: 'This email address is verified already: there is no verification mail to send.',
  resendTooMany: (perHour: number) =>
    `This account was sent ${perHour} verification mails in the last hour. Please wait before sending another.`,
  adminAlready: (username: string) => `${username} is an admin already.`,
  notAdmin: (username: string) => `${username} is not an admin.`,
  lastAdmin: (username: string) =>
    `${username} is the last admin who can log in: make someone else an admin first.`,
  revokeYourself: 'You cannot revoke your own admin access: ask another admin to do it.',
  disableYourself: 'You cannot disable your own account.',
  disabledAlready: (username: string) => `${username}'s account is disabled already.`,
  enabledAlready: (username: string) => `${username}'s account is enabled already.`,
} as const;

const dbId = z.coerce.number().int().positive().max(2_147_483_647);

export function customerIdOf(params: unknown): number {
  const parsed = dbId.safeParse((params as Record<string, unknown>).id);
  if (!parsed.success) throw new HttpError(404, CUSTOMER_MSG.notFound);
  return parsed.data;
}
