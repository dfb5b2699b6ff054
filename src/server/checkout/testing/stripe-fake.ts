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

export type StripeFake = {
  /** `http://127.0.0.1:port`, for STRIPE_API_BASE. */
  url: string;
  sessions: Map<string, FakeSession>;
  requests: RecordedRequest[];
  /** Makes the next calls fail: a status code to answer, or 'hang' to never answer. */
  failWith: number | 'hang' | null;
  /** Marks a session paid, with a shipping address, as Stripe does when the customer pays. */
  pay(id: string, overrides?: Partial<FakeSession>): FakeSession;
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

function newSession(form: URLSearchParams): FakeSession {
  let total = 0;
  for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
    total +=
      Number(form.get(`line_items[${i}][price_data][unit_amount]`)) *
      Number(form.get(`line_items[${i}][quantity]`));
  }
  const id = `cs_test_${randomBytes(12).toString('hex')}`;
  return {
    id,
    object: 'checkout.session',
    url: `https://checkout.stripe.test/c/pay/${id}`,
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: total,
    currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
    client_reference_id: form.get('client_reference_id'),
    metadata: { orderId: form.get('metadata[orderId]') },
    customer_email: form.get('customer_email'),
    success_url: form.get('success_url'),
    cancel_url: form.get('cancel_url'),
    expires_at: Number(form.get('expires_at')),
    payment_intent: null,
    collected_information: null,
  };
}

export async function startStripeFake(): Promise<StripeFake> {
  const sessions = new Map<string, FakeSession>();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const fake: StripeFake = {
    url: '',
    sessions,
    requests,
    failWith: null,
    pay(id, overrides = {}) {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      Object.assign(s, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: `pi_${randomBytes(8).toString('hex')}`,
        collected_information: { shipping_details: US_SHIPPING },
        ...overrides,
      });
      return s;
    },
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
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const session = newSession(new URLSearchParams(body));
      sessions.set(session.id, session);
      return send(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const session = sessions.get(match[1]!);
      if (session) return send(200, session);
      return send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
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
