import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { ShippingAddressInput } from '../../shared/address.ts';
import { orders } from '../db/schema.ts';
import { boxStl, makeUser, uploadRequest } from '../models/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { type StripeFake, startStripeFake } from './testing/stripe-fake.ts';
import { WEBHOOK_PATH } from './webhook-route.ts';

// Helpers for the checkout tests: a customer with uploaded models, cart lines, the calls, an address.

export type Customer = { id: number; cookie: string };

export async function makeCustomer(t: TestApp): Promise<Customer> {
  return makeUser(t);
}

/** Uploads a box of the given size (mm) as the customer; returns the model id. */
export async function uploadBox(t: TestApp, customer: Customer, size: number, fileName = `box${size}.stl`) {
  const res = await t.app.inject(
    uploadRequest({ fileName, bytes: boxStl(size, size, size) }, customer.cookie),
  );
  if (res.statusCode !== 201 && res.statusCode !== 200)
    throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

/** A printCart line as the client stores it (docs/domain.md, src/shared/cart.ts). */
export function cartItem(modelId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `line-${modelId}-${Math.random().toString(36).slice(2)}`,
    filePath: modelId,
    fileName: 'box.stl',
    color: '#007bff',
    strength: 3,
    cost: 12,
    quantity: 1,
    previewImage: `/api/models/${modelId}/preview.png`,
    volumeCm3: 1,
    dimensions: { x: 10, y: 10, z: 10 },
    notes: '',
    ...overrides,
  };
}

export function post(
  t: TestApp,
  url: string,
  payload: unknown,
  cookie?: string,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(payload),
  });
}

export function startCheckout(t: TestApp, customer: Customer | null, cartItems: unknown, shipTo?: unknown) {
  return post(
    t,
    '/api/create-checkout-session.php',
    shipTo === undefined ? { cartItems } : { cartItems, shipTo },
    customer?.cookie,
  );
}

export const ADDRESS: ShippingAddressInput = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  line2: 'Apt 2',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
  country: 'US',
};

export const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };
export const DECLINED_CARD = { ...CARD, number: '4000 0000 0000 0002' };

export function paySimulator(
  t: TestApp,
  sessionId: string,
  card: Record<string, string> = CARD,
  shipping: Record<string, string> = ADDRESS,
  /** The shipping method chosen: the session's first (preselected) one when not given. */
  shippingOption?: string,
) {
  return post(t, `/api/pay/simulator/${sessionId}/pay`, {
    card,
    shipping,
    shippingOption: shippingOption ?? (shipping.country === 'CA' ? 'ca-standard' : 'us-standard'),
  });
}

export async function orderOfSession(t: TestApp, sessionId: string) {
  const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  return order;
}

export type StripeShop = {
  t: TestApp;
  fake: StripeFake;
  webhookSecret: string;
  /** Posts a signed event (signedEvent) to the webhook as Stripe would. */
  deliver(event: { payload: string; signature?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

/** The shop on Stripe, pointed at a local Stripe fake, with both secrets set. */
export async function startStripeShop(env: Record<string, string> = {}): Promise<StripeShop> {
  const fake = await startStripeFake();
  const webhookSecret = 'whsec_test_shop';
  const t = await buildTestApp({
    RATE_LIMIT_SCALE: '100',
    STRIPE_SECRET_KEY: 'sk_test_shop',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: fake.url,
    ...env,
  });
  return {
    t,
    fake,
    webhookSecret,
    deliver: (event) =>
      t.app.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          ...(event.signature ? { 'stripe-signature': event.signature } : {}),
        },
        payload: event.payload,
      }),
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}
