import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// A local stand-in for the two Stripe endpoints the shop calls, so the real stripe-node SDK can be tested
// end to end (its `host`/`port`/`protocol` options, through STRIPE_API_BASE), and signed events to send to
// the webhook. Sessions are plain objects the tests change (paid, expired, another amount).

export type FakeSession = Record<string, unknown> & {
  id: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
};

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: URLSearchParams;
};

export type FakeRefund = {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  payment_intent: string;
  charge: string;
  metadata: Record<string, string>;
  created: number;
};

export type StripeFake = {
  /** `http://127.0.0.1:port`, for STRIPE_API_BASE. */
  url: string;
  sessions: Map<string, FakeSession>;
  /** Every refund, by id (made through the API or, in tests, "in the dashboard" with refundInDashboard). */
  refunds: Map<string, FakeRefund>;
  customers: Map<string, Record<string, unknown>>;
  /** PaymentIntent statuses by id (default 'succeeded' once paid); tests set 'requires_payment_method'. */
  intentStatus: Map<string, string>;
  requests: RecordedRequest[];
  /** Makes the next refund calls answer this status (default 'succeeded'), or refuse them (`'refuse'`). */
  refundOutcome: FakeRefund['status'] | 'refuse';
  /** Makes the next calls fail: a status code to answer, or 'hang' to never answer. */
  failWith: number | 'hang' | null;
  /** Marks a session paid, with a shipping address, as Stripe does when the customer pays. */
  pay(id: string, overrides?: Partial<FakeSession>): FakeSession;
  /** A refund made in Stripe's dashboard: it exists at Stripe, the shop has not heard of it. */
  refundInDashboard(paymentIntentId: string, amount: number, status?: FakeRefund['status']): FakeRefund;
  close(): Promise<void>;
};

export const US_SHIPPING = {
  name: 'Ada Lovelace',
  address: {
    line1: '1 Main St',
    line2: null,
    city: 'Madison',
    state: 'WI',
    postal_code: '53703',
    country: 'US',
  },
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type FakeRate = {
  id: string;
  object: 'shipping_rate';
  display_name: string;
  fixed_amount: { amount: number; currency: string };
  metadata: Record<string, string>;
  delivery_estimate: { minimum: { unit: string; value: number }; maximum: { unit: string; value: number } };
};

/** The shipping rates a session was made with (shipping_options[i][shipping_rate_data]). */
function ratesOf(form: URLSearchParams): FakeRate[] {
  const rates: FakeRate[] = [];
  for (let i = 0; form.has(`shipping_options[${i}][shipping_rate_data][display_name]`); i++) {
    const f = (k: string) => form.get(`shipping_options[${i}][shipping_rate_data][${k}]`) ?? '';
    rates.push({
      id: `shr_${randomBytes(8).toString('hex')}`,
      object: 'shipping_rate',
      display_name: f('display_name'),
      fixed_amount: { amount: Number(f('fixed_amount][amount')), currency: f('fixed_amount][currency') },
      metadata: { methodId: f('metadata][methodId') },
      delivery_estimate: {
        minimum: {
          unit: f('delivery_estimate][minimum][unit'),
          value: Number(f('delivery_estimate][minimum][value')),
        },
        maximum: {
          unit: f('delivery_estimate][maximum][unit'),
          value: Number(f('delivery_estimate][maximum][value')),
        },
      },
    });
  }
  return rates;
}

/** The session's shipping and tax parts with rate `index` chosen and `tax` added, as Stripe recomputes them. */
export function withShipping(
  session: FakeSession,
  index: number,
  tax: { amount: number; breakdown?: unknown[] } = { amount: 0 },
): Partial<FakeSession> {
  const rates = (session.shipping_options as { shipping_rate: FakeRate }[]) ?? [];
  const rate = rates[index]?.shipping_rate;
  const shipping = rate?.fixed_amount.amount ?? 0;
  const subtotal = session.amount_subtotal as number;
  return {
    amount_total: subtotal + shipping + tax.amount,
    shipping_cost: rate
      ? { amount_subtotal: shipping, amount_tax: 0, amount_total: shipping, shipping_rate: rate.id }
      : null,
    total_details: {
      amount_discount: 0,
      amount_shipping: shipping,
      amount_tax: tax.amount,
      breakdown: { discounts: [], taxes: tax.breakdown ?? [] },
    },
  };
}

function newSession(form: URLSearchParams): FakeSession {
  let total = 0;
  for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
    total +=
      Number(form.get(`line_items[${i}][price_data][unit_amount]`)) *
      Number(form.get(`line_items[${i}][quantity]`));
  }
  const rates = ratesOf(form);
  const id = `cs_test_${randomBytes(12).toString('hex')}`;
  const session: FakeSession = {
    id,
    object: 'checkout.session',
    url: `https://checkout.stripe.test/c/pay/${id}`,
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: total,
    amount_subtotal: total,
    currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
    shipping_options: rates.map((r) => ({ shipping_amount: r.fixed_amount.amount, shipping_rate: r })),
    allowed_countries: form.getAll('shipping_address_collection[allowed_countries][0]'),
    automatic_tax: { enabled: form.get('automatic_tax[enabled]') === 'true' },
    client_reference_id: form.get('client_reference_id'),
    metadata: { orderId: form.get('metadata[orderId]') },
    customer_email: form.get('customer_email'),
    success_url: form.get('success_url'),
    cancel_url: form.get('cancel_url'),
    expires_at: Number(form.get('expires_at')),
    payment_intent: null,
    collected_information: null,
    customer: form.get('customer'),
    payment_intent_data: {
      description: form.get('payment_intent_data[description]'),
      orderId: form.get('payment_intent_data[metadata][orderId]'),
    },
  };
  // Stripe preselects the first shipping option: the total starts with it.
  return { ...session, ...withShipping(session, 0) } as FakeSession;
}

let serial = 0;
const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}${++serial}`;

export async function startStripeFake(): Promise<StripeFake> {
  const sessions = new Map<string, FakeSession>();
  const refunds = new Map<string, FakeRefund>();
  const customers = new Map<string, Record<string, unknown>>();
  const intentStatus = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  // Stripe's idempotency: the same key answers the first answer again.
  const idempotent = new Map<string, { status: number; json: unknown }>();
  const makeRefund = (
    pi: string,
    amount: number,
    status: FakeRefund['status'],
    metadata: Record<string, string>,
  ) => {
    const refund: FakeRefund = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: 'usd',
      status,
      payment_intent: pi,
      charge: pi.replace(/^pi_/, 'ch_'),
      metadata,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    return refund;
  };
  const fake: StripeFake = {
    url: '',
    sessions,
    refunds,
    customers,
    intentStatus,
    requests,
    refundOutcome: 'succeeded',
    failWith: null,
    pay(id, overrides = {}) {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      Object.assign(s, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: newId('pi'),
        collected_information: { shipping_details: US_SHIPPING },
        ...overrides,
      });
      return s;
    },
    refundInDashboard: (pi, amount, status = 'succeeded') => makeRefund(pi, amount, status, {}),
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ method: req.method ?? '', path, headers: req.headers, form: new URLSearchParams(body) });
    if (fake.failWith === 'hang') {
      hanging.add(res);
      return;
    }
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(json));
    };
    if (fake.failWith !== null) {
      return send(fake.failWith, {
        error: { type: 'api_error', message: 'The fake is failing on purpose.' },
      });
    }
    const key = req.headers['idempotency-key'];
    const keyed = typeof key === 'string' ? `${path}:${key}` : null;
    if (req.method === 'POST' && keyed && idempotent.has(keyed)) {
      const first = idempotent.get(keyed)!;
      return send(first.status, first.json);
    }
    const remember = (status: number, json: unknown) => {
      if (req.method === 'POST' && keyed) idempotent.set(keyed, { status, json });
      send(status, json);
    };
    const form = new URLSearchParams(body);
    const missing = (what: string) =>
      send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
      });
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const session = newSession(form);
      sessions.set(session.id, session);
      return remember(200, session);
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/.exec(path);
    if (req.method === 'POST' && expire) {
      const session = sessions.get(expire[1]!);
      if (!session) return missing('checkout.session');
      if (session.status !== 'open') {
        return send(400, {
          error: {
            type: 'invalid_request_error',
            message: 'This Checkout Session is not in an expirable state.',
          },
        });
      }
      session.status = 'expired';
      return send(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const session = sessions.get(match[1]!);
      if (!session) return missing('checkout.session');
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      const pi = session.payment_intent as string | null;
      const expand = [...query].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
      const cost = session.shipping_cost as { shipping_rate: string } | null | undefined;
      const rates = (session.shipping_options as { shipping_rate: FakeRate }[] | undefined) ?? [];
      const expanded: FakeSession = {
        ...session,
        ...(cost && expand.includes('shipping_cost.shipping_rate')
          ? {
              shipping_cost: {
                ...cost,
                shipping_rate:
                  rates.find((r) => r.shipping_rate.id === cost.shipping_rate)?.shipping_rate ??
                  cost.shipping_rate,
              },
            }
          : {}),
      };
      if (!expand.includes('total_details.breakdown') && expanded.total_details) {
        const { breakdown: _, ...details } = expanded.total_details as Record<string, unknown>;
        expanded.total_details = details;
      }
      if (pi && expand.includes('payment_intent')) {
        return send(200, {
          ...expanded,
          payment_intent: {
            id: pi,
            object: 'payment_intent',
            status: intentStatus.get(pi) ?? (session.payment_status === 'paid' ? 'succeeded' : 'processing'),
            latest_charge: pi.replace(/^pi_/, 'ch_'),
          },
        });
      }
      return send(200, expanded);
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      if (fake.refundOutcome === 'refuse') {
        return remember(400, {
          error: { type: 'invalid_request_error', message: 'Charge has already been refunded.' },
        });
      }
      const pi = form.get('payment_intent') ?? '';
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(\w+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      return remember(200, makeRefund(pi, Number(form.get('amount')), fake.refundOutcome, metadata));
    }
    if (req.method === 'GET' && path === '/v1/refunds') {
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      const pi = query.get('payment_intent');
      const data = [...refunds.values()].filter((r) => r.payment_intent === pi).reverse();
      return send(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    if (req.method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: form.get('email'),
        name: form.get('name'),
      };
      customers.set(customer.id, customer);
      return remember(200, customer);
    }
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

let eventSerial = 0;

/** A Stripe event as its webhook sends it: the JSON body and its `Stripe-Signature` header. */
export function signedEvent(
  secret: string,
  type: string,
  object: unknown,
  options: { id?: string; timestamp?: number } = {},
): { id: string; payload: string; signature: string } {
  eventSerial++;
  const id = options.id ?? `evt_${process.pid}_${eventSerial}_${randomBytes(4).toString('hex')}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { id, payload, signature };
}
