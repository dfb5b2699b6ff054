import { ACCOUNT_MSG } from '../../shared/account.ts';

// The account fields' rules (docs/domain.md), shared by the routes and the admin CLI. Every message is a
// whole sentence a customer can read: routes send the first one as `{ error }`.

export const MSG = {
  ...ACCOUNT_MSG,
  registerTaken: 'Registration failed. Username or email might already be taken.',
  registered: 'Registration successful! Please check your email for a verification link.',
  notVerified: 'Account not verified. Please check your email for the verification link.',
  accountDisabled: 'This account is disabled. Please contact us.',
  loginThrottled: 'Too many failed login attempts for this account. Please wait a while before trying again.',
  loggedIn: 'Login successful.',
  loggedOut: 'Logged out successfully.',
  notLoggedIn: 'Please log in first.',
  adminRequired: 'Admin access required.',
  resent: 'Verification email resent successfully (if account exists and is unverified).',
  verifyFailed: 'This verification link is invalid, expired or already used.',
  forgotSent: 'Password reset instructions sent (if account exists).',
  forgotTooMany:
    'Too many password reset requests have been sent from your location. Please wait a while before trying again.',
  resetDone: 'Password reset successfully!',
  tooManyRequests: 'Too many requests. Please wait before trying again.',
} as const;

// The field rules live in src/shared/account.ts, where the client's forms use them too.
export {
  emailField,
  MAX_EMAIL_LENGTH,
  newPasswordField,
  USERNAME_PATTERN,
  usernameField,
} from '../../shared/account.ts';
