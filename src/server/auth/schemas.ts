import { ACCOUNT_MSG } from '../../shared/account.ts';

// The account fields' rules (DESIGN.md §5), shared by the routes and the admin CLI. Every message is a
// whole sentence a customer can read: routes send the first one as `{ error }`.

export const MSG = {
  registerRequired: 'Username, email and password are required.',
  ...ACCOUNT_MSG,
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

// The field rules live in src/shared/account.ts, where the client's forms use them too.
export {
  emailField,
  MAX_EMAIL_LENGTH,
  newPasswordField,
  USERNAME_PATTERN,
  usernameField,
} from '../../shared/account.ts';
