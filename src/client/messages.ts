import { formatCount } from '../shared/format.ts';

// User-facing texts (docs/domain.md, and the errors of docs/api.md), word for word, in one place.

export const MSG = {
  network: 'Network error or server issue. Please try again later.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  passwordsDoNotMatch: 'Passwords do not match.',
  loginFailed: 'Login failed. Please check your username and password.',
  notVerifiedMarker: 'Account not verified',
  resendNeedsUsername: 'Please enter your username first.',
  resendOk: 'Verification email resent successfully (if account exists and is unverified).',
  resendFailed: 'Failed to resend verification email. Please try again later.',
  resendNetwork: 'Network error or server issue during resend. Please try again later.',
  registerFailed: 'Registration failed. Username or email might already be taken.',
  registerOk: 'Registration successful! Please check your email for a verification link.',
  contactOk: "Thank you for your message! We'll get back to you soon.",
  contactTooMany: 'Too many requests. Please wait before submitting again.',
  contactFailed: (statusText: string, status: number) => `An error occurred: ${statusText} (${status})`,
  forgotOk: 'Password reset instructions sent (if account exists).',
  forgotTooMany:
    'Too many password reset requests have been sent from your location. Please wait a while before trying again.',
  forgotFailed: (status: number) => `Failed to request password reset. Status: ${status}`,
  resetNoTokenInUrl: 'Invalid or missing password reset token in URL.',
  resetNoToken: 'Cannot reset password without a valid token.',
  resetFailed: 'Failed to reset password. The token might be invalid or expired.',
  resetOk: 'Password reset successfully! Redirecting to login...',
  ordersLoading: 'Loading your orders...',
  ordersEmpty: "You haven't placed any orders yet.",
  ordersNoItems: 'No item details found for this order.',
  ordersFailed: (statusText: string, status: number) => `Failed to fetch orders: ${statusText} (${status})`,
  ordersBadData: 'Invalid order data format received from server.',
  cartEmpty: 'Your cart is empty.',
  /** What a screen reader hears on the cart icon: '1 item in cart', '2 items in cart'. */
  itemsInCart: (count: number) => `${formatCount(count, 'item')} in cart`,
  checkoutNeedsLogin: 'Please log in to proceed to checkout.',
  checkoutFailed: (message: string) => `Checkout Failed: ${message}`,
  checkoutNoSession: 'Failed to get checkout session ID.',
  checkoutError: (message: string) => `Checkout Error: ${message}`,
  paymentCancelled:
    'Order Cancelled or Payment Failed. Your cart has not been changed. You can try checking out again.',
  paymentSuccess:
    "Payment Successful! Your order is being processed. You can view it in 'My Orders' shortly.",
} as const;
