import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './catalog.ts';

// The account fields' rules (docs/domain.md), one source for the server's routes and the client's forms, so
// the register form shows exactly the server's reasons, every field at once.

export const ACCOUNT_MSG = {
  usernameInvalid:
    'Username must be 3-32 characters long and use only letters, digits, dots, dashes or underscores.',
  emailInvalid: 'Please enter a valid email address.',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`,
  registerRequired: 'Username, email and password are required.',
  loginRequired: 'Username and password are required.',
  loginInvalid: 'Invalid username or password.',
  resendRequired: 'Please enter your username first.',
  forgotRequired: 'Please enter your email address.',
  resetNoToken: 'Cannot reset password without a valid token.',
  resetFailed: 'Failed to reset password. The token might be invalid or expired.',
  passwordsDoNotMatch: 'Passwords do not match.',
  /**
   * The step-up (docs/security.md 6): the same answer to every password, right or wrong, and to an unknown
   * name, once strangers have used up the name's failed logins.
   */
  loginStepUp:
    "Too many failed logins for this account from elsewhere. If the password you typed is right, we have emailed a sign-in link to the account's address: open it in this browser to log in.",
  signInLinkFailed: 'This sign-in link is invalid, expired or already used.',
} as const;

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
/** RFC 5321's limit on a forward path. */
export const MAX_EMAIL_LENGTH = 254;

export const usernameField = z.string().trim().regex(USERNAME_PATTERN, ACCOUNT_MSG.usernameInvalid);

export const emailField = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, ACCOUNT_MSG.emailInvalid)
  .pipe(z.email({ error: ACCOUNT_MSG.emailInvalid }));

/** A new password: checked for length only (docs/domain.md), never trimmed or truncated. */
export const newPasswordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, ACCOUNT_MSG.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, ACCOUNT_MSG.passwordTooLong);

export const registerFields = z.object({
  username: usernameField,
  email: emailField,
  password: newPasswordField,
});

/** Username or email, and password: too long is simply a wrong login, never a hint. */
export const loginRequest = z.object({
  username: z.string().trim().max(MAX_EMAIL_LENGTH, ACCOUNT_MSG.loginInvalid),
  password: z.string().max(MAX_PASSWORD_LENGTH, ACCOUNT_MSG.loginInvalid),
});

export const resendVerificationRequest = z.object({
  username: z.string().trim().max(MAX_EMAIL_LENGTH, ACCOUNT_MSG.resendRequired),
});

export const forgotPasswordRequest = z.object({ email: emailField });

export const resetPasswordRequest = z.object({
  token: z
    .string({ error: ACCOUNT_MSG.resetNoToken })
    .trim()
    .min(1, ACCOUNT_MSG.resetNoToken)
    .max(100, ACCOUNT_MSG.resetFailed),
  password: z.string({ error: ACCOUNT_MSG.passwordTooShort }).pipe(newPasswordField),
  confirmPassword: z
    .string({ error: ACCOUNT_MSG.passwordsDoNotMatch })
    .max(MAX_PASSWORD_LENGTH, ACCOUNT_MSG.passwordsDoNotMatch),
});

/** The token of a mailed sign-in link (/sign-in?token=): anything else is simply not a valid link. */
export const signInLinkRequest = z.object({
  token: z.string().trim().max(100, ACCOUNT_MSG.signInLinkFailed),
});

/** Every field's first problem, by field name: what a form shows next to each field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}
