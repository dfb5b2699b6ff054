import { z } from 'zod';
import {
  ACCOUNT_MSG,
  forgotPasswordRequest,
  loginRequest,
  registerFields,
  resendVerificationRequest,
  resetPasswordRequest,
  signInLinkRequest,
} from './account.ts';
import {
  adminNoteRequest,
  adminOrderChanged,
  adminOrderDetail,
  adminOrderList,
  adminRefundRequest,
  adminReprintRequest,
  adminResolveFlagRequest,
  adminStatusRequest,
  productionSheet,
  productionStartPayload,
  productionStartRequest,
} from './admin.ts';
import {
  adminCustomerChanged,
  adminCustomerDetail,
  adminCustomerList,
  adminSwitchRequest,
  adminVerifyRequest,
} from './admin-customers.ts';
import { adminDashboard } from './admin-dashboard.ts';
import { adminMessageChanged, adminMessageHandledRequest, adminMessageList } from './admin-messages.ts';
import {
  adminPricingPayload,
  adminPricingPreviewPayload,
  adminPricingPreviewRequest,
  adminPricingSaveRequest,
  adminProductionPayload,
  adminProductionSaveRequest,
  adminSettingsHistoryPayload,
  adminShippingPayload,
  adminShippingSaveRequest,
  adminShopPayload,
  adminShopSaveRequest,
} from './admin-settings.ts';
import { cartItem, cartItems } from './cart.ts';
import {
  cartQuotePayload,
  cartQuoteRequest,
  checkoutSessionPayload,
  checkoutStatusPayload,
  simulatorPayPayload,
  simulatorPayRequest,
  simulatorSessionPayload,
} from './checkout.ts';
import { CONTACT_MSG, contactRequest } from './contact.ts';
import { modelListPayload, modelPayload, quotePayload, quoteRequest, scaleRequest } from './models.ts';
import { cancelOrderPayload, orderAgainPayload, orderPayload } from './orders.ts';
import { shipToCountry, shopInfoPayload } from './shipping.ts';

// The one table of the API the client calls: every route's method, path and, where it has them, the zod
// schemas of its JSON body and answer. The server registers its routes from these entries and parses bodies
// with these schemas; the client's getJson/postJson accept only paths of this table (a call to a route the
// server lacks fails `npm run check`), and api-contract.test.ts finds every entry on the running server.
// docs/api.md describes each route's answers and errors.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

type Route<M extends Method, P extends string, B extends z.ZodType | undefined> = {
  method: M;
  path: P;
  /** The JSON body's schema (POST/PUT); the server parses with it, the client's body must match its input. */
  body: B;
  /** Fields that must be non-empty strings, and the one message when any is missing (the PHP shop's contract). */
  required?: { fields: readonly string[]; message: string };
  /** What a 2xx answer holds. */
  response?: z.ZodType;
};

function route<M extends Method, P extends string, B extends z.ZodType | undefined = undefined>(
  method: M,
  path: P,
  extra: { body?: B; required?: Route<M, P, B>['required']; response?: z.ZodType } = {},
): Route<M, P, B> {
  return { method, path, body: extra.body as B, required: extra.required, response: extra.response };
}

export const createCheckoutRequest = z.object({
  cartItems: z.array(cartItem),
  /** The cart's 'Ship to' (default US): the hosted page takes only this country's addresses and methods. */
  shipTo: shipToCountry.optional(),
});
/** A logged-in customer's cart as the server keeps it. */
export const cartPayload = z.object({ items: cartItems });

export const API = {
  // Accounts and session
  checkSession: route('GET', '/api/check_session.php'),
  userRole: route('GET', '/api/get_user_role.php'),
  logout: route('GET', '/api/logout.php'),
  login: route('POST', '/api/login.php', {
    body: loginRequest,
    required: { fields: ['username', 'password'], message: ACCOUNT_MSG.loginRequired },
  }),
  register: route('POST', '/api/register.php', {
    body: registerFields,
    required: {
      fields: ['username', 'email', 'password'],
      message: ACCOUNT_MSG.registerRequired,
    },
  }),
  resendVerification: route('POST', '/api/resend_verification.php', {
    body: resendVerificationRequest,
    required: { fields: ['username'], message: ACCOUNT_MSG.resendRequired },
  }),
  requestPasswordReset: route('POST', '/api/request_password_reset.php', {
    body: forgotPasswordRequest,
    required: { fields: ['email'], message: ACCOUNT_MSG.forgotRequired },
  }),
  resetPassword: route('POST', '/api/reset_password.php', {
    body: resetPasswordRequest,
    required: { fields: ['token'], message: ACCOUNT_MSG.resetNoToken },
  }),
  /** The mailed one-time link of a login's step-up (docs/security.md 6): logs this browser in. */
  signInLink: route('POST', '/api/sign-in-link', {
    body: signInLinkRequest,
    required: { fields: ['token'], message: ACCOUNT_MSG.signInLinkFailed },
  }),
  contact: route('POST', '/api/send_contact_email.php', {
    body: contactRequest,
    required: { fields: ['name', 'email', 'message'], message: CONTACT_MSG.required },
  }),

  // Models (uploads are multipart: no JSON body)
  upload: route('POST', '/api/uploads', { response: modelPayload }),
  myModels: route('GET', '/api/models', { response: modelListPayload }),
  model: route('GET', '/api/models/:id', { response: modelPayload }),
  removeModel: route('DELETE', '/api/models/:id'),
  modelFile: route('GET', '/api/models/:id/file'),
  modelPreview: route('GET', '/api/models/:id/preview.png'),
  /** The 3D viewer's mesh (GLB with meshopt compression); `X-View-Simplified: 1` when simplified for display. */
  modelView: route('GET', '/api/models/:id/view.glb'),
  scaleModel: route('POST', '/api/models/:id/scale', { body: scaleRequest, response: modelPayload }),
  quote: route('POST', '/api/quote', { body: quoteRequest, response: quotePayload }),

  // Cart, checkout, payment and orders
  savedCart: route('GET', '/api/cart', { response: cartPayload }),
  saveCart: route('PUT', '/api/cart', { body: cartPayload, response: cartPayload }),
  cartQuote: route('POST', '/api/cart/quote', { body: cartQuoteRequest, response: cartQuotePayload }),
  createCheckout: route('POST', '/api/create-checkout-session.php', {
    body: createCheckoutRequest,
    response: checkoutSessionPayload,
  }),
  checkoutStatus: route('GET', '/api/checkout/status', { response: checkoutStatusPayload }),
  simulatorSession: route('GET', '/api/pay/simulator/:id', { response: simulatorSessionPayload }),
  simulatorPay: route('POST', '/api/pay/simulator/:id/pay', {
    body: simulatorPayRequest,
    response: simulatorPayPayload,
  }),
  orders: route('GET', '/api/get_orders.php', { response: z.array(orderPayload) }),
  cancelOrder: route('POST', '/api/orders/:id/cancel', { body: z.object({}), response: cancelOrderPayload }),
  orderAgain: route('POST', '/api/orders/:id/order-again', {
    body: z.object({}),
    response: orderAgainPayload,
  }),
  /** What every page may say about the checkout: test mode, taxes, shipping methods (public). */
  shopInfo: route('GET', '/api/shop', { response: shopInfoPayload }),

  // The back office (admins only: 401 logged out, 403 otherwise; docs/api.md "Admin")
  adminOrders: route('GET', '/api/admin/orders', { response: adminOrderList }),
  adminOrdersCsv: route('GET', '/api/admin/orders.csv'),
  adminOrder: route('GET', '/api/admin/orders/:id', { response: adminOrderDetail }),
  adminOrderStatus: route('POST', '/api/admin/orders/:id/status', {
    body: adminStatusRequest,
    response: adminOrderChanged,
  }),
  adminOrderNote: route('POST', '/api/admin/orders/:id/notes', {
    body: adminNoteRequest,
    response: adminOrderChanged,
  }),
  adminOrderRefund: route('POST', '/api/admin/orders/:id/refund', {
    body: adminRefundRequest,
    response: adminOrderChanged,
  }),
  adminResolveFlag: route('POST', '/api/admin/orders/:id/flags/:flagId/resolve', {
    body: adminResolveFlagRequest,
    response: adminOrderChanged,
  }),
  adminReprint: route('POST', '/api/admin/orders/:id/items/:itemId/reprint', {
    body: adminReprintRequest,
    response: adminOrderChanged,
  }),
  adminItemPrinted: route('POST', '/api/admin/orders/:id/items/:itemId/printed', {
    body: z.object({}),
    response: adminOrderChanged,
  }),
  adminProduction: route('GET', '/api/admin/production', { response: productionSheet }),
  adminProductionStart: route('POST', '/api/admin/production/start', {
    body: productionStartRequest,
    response: productionStartPayload,
  }),
  // Admin: settings (pricing, shipping, production, shop, history)
  adminSettingsPricing: route('GET', '/api/admin/settings/pricing', { response: adminPricingPayload }),
  adminSettingsPricingSave: route('PUT', '/api/admin/settings/pricing', {
    body: adminPricingSaveRequest,
    response: adminPricingPayload,
  }),
  adminSettingsPricingPreview: route('POST', '/api/admin/settings/pricing/preview', {
    body: adminPricingPreviewRequest,
    response: adminPricingPreviewPayload,
  }),
  adminSettingsShipping: route('GET', '/api/admin/settings/shipping', { response: adminShippingPayload }),
  adminSettingsShippingSave: route('PUT', '/api/admin/settings/shipping', {
    body: adminShippingSaveRequest,
    response: adminShippingPayload,
  }),
  adminSettingsProduction: route('GET', '/api/admin/settings/production', {
    response: adminProductionPayload,
  }),
  adminSettingsProductionSave: route('PUT', '/api/admin/settings/production', {
    body: adminProductionSaveRequest,
    response: adminProductionPayload,
  }),
  adminSettingsShop: route('GET', '/api/admin/settings/shop', { response: adminShopPayload }),
  adminSettingsShopSave: route('PUT', '/api/admin/settings/shop', {
    body: adminShopSaveRequest,
    response: adminShopPayload,
  }),
  adminSettingsHistory: route('GET', '/api/admin/settings/history', {
    response: adminSettingsHistoryPayload,
  }),
  // Admin: customers
  adminCustomers: route('GET', '/api/admin/customers', { response: adminCustomerList }),
  adminCustomer: route('GET', '/api/admin/customers/:id', { response: adminCustomerDetail }),
  adminCustomerVerify: route('POST', '/api/admin/customers/:id/verify', {
    body: adminVerifyRequest,
    response: adminCustomerChanged,
  }),
  adminCustomerResend: route('POST', '/api/admin/customers/:id/resend-verification', {
    body: z.object({}),
    response: adminCustomerChanged,
  }),
  adminCustomerAdmin: route('POST', '/api/admin/customers/:id/admin', {
    body: adminSwitchRequest,
    response: adminCustomerChanged,
  }),
  adminCustomerDisable: route('POST', '/api/admin/customers/:id/disable', {
    body: adminSwitchRequest,
    response: adminCustomerChanged,
  }),
  // Admin: messages
  adminMessages: route('GET', '/api/admin/messages', { response: adminMessageList }),
  adminMessageHandled: route('POST', '/api/admin/messages/:id/handled', {
    body: adminMessageHandledRequest,
    response: adminMessageChanged,
  }),
  // Admin: dashboard
  adminDashboard: route('GET', '/api/admin/dashboard', { response: adminDashboard }),
} as const;

export type ApiRoutes = typeof API;
export type ApiRouteName = keyof ApiRoutes;

/** `/api/models/:id/file` -> `/api/models/${string}/file`: the concrete paths a route pattern matches. */
type Concrete<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${Concrete<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;

type RouteOf<M extends Method> = {
  [K in ApiRouteName]: ApiRoutes[K] extends { method: M } ? K : never;
}[ApiRouteName];

/** Every concrete path the client may call with `method`; a GET may carry a query string. */
export type ApiPath<M extends Method> = {
  [K in RouteOf<M>]: M extends 'GET'
    ? Concrete<ApiRoutes[K]['path']> | `${Concrete<ApiRoutes[K]['path']>}?${string}`
    : Concrete<ApiRoutes[K]['path']>;
}[RouteOf<M>];

/** The JSON body a POST or PUT to `path` takes (the schema's input), from the route the path matches. */
export type ApiBody<M extends Method, P extends string> = {
  [K in RouteOf<M>]: P extends Concrete<ApiRoutes[K]['path']>
    ? ApiRoutes[K]['body'] extends z.ZodType
      ? z.input<ApiRoutes[K]['body']>
      : never
    : never;
}[RouteOf<M>];

/** A route's path with its `:params` filled in (each encoded). */
export function apiPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`apiPath: no value for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}
