import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/catalog.ts';

// The account fields' rules (DESIGN.md §5), shared by the routes and the admin CLI. Every message is a
// whole sentence a customer can read: routes send the first one as `{ error }`.

export const MSG = {
  registerRequired: 'Username, email and password are required.',
  usernameInvalid:
    'Username must be 3-32 characters long and use only letters, digits, dots, dashes or underscores.',
  emailInvalid: 'Please enter a valid email address.',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`,
  registerTaken: 'Registration failed. Username or email might already be taken.',
  registered: 'Registration successful! Please check your email for a verification link.',
  loginRequired: 'Username and password are required.',
  loginInvalid: 'Invalid username or password.',
  notVerified: 'Account not verified. Please check your email for the verification link.',
  loginThrottled: 'Too many failed login attempts for this account. Please wait a while before trying again.',
  loggedIn: 'Login successful.',
  loggedOut: 'Logged out successfully.',
  notLoggedIn: 'Please log in first.',
  adminRequired: 'Admin access required.',
  resendRequired: 'Please enter your username first.',
  resent: 'Verification email resent successfully (if account exists and is unverified).',
  verifyFailed: 'This verification link is invalid, expired or already used.',
  forgotRequired: 'Please enter your email address.',
  forgotSent: 'Password reset instructions sent (if account exists).',
  forgotTooMany:
    'Too many password reset requests have been sent from your location. Please wait a while before trying again.',
  resetNoToken: 'Cannot reset password without a valid token.',
  passwordsDoNotMatch: 'Passwords do not match.',
  resetFailed: 'Failed to reset password. The token might be invalid or expired.',
  resetDone: 'Password reset successfully!',
  tooManyRequests: 'Too many requests. Please wait before trying again.',
} as const;

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
/** RFC 5321's limit on a forward path. */
export const MAX_EMAIL_LENGTH = 254;

export const usernameField = z.string().trim().regex(USERNAME_PATTERN, MSG.usernameInvalid);

export const emailField = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, MSG.emailInvalid)
  .pipe(z.email({ error: MSG.emailInvalid }));

/** A new password: checked for length only (SPEC.md §5), never trimmed or truncated. */
export const newPasswordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, MSG.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, MSG.passwordTooLong);
