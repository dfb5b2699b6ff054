// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { leavePage } from './leave.ts';
import SimulatorPage from './SimulatorPage.tsx';

// The simulator's page in a DOM, against a stubbed fetch playing the simulator's endpoints.

vi.mock('./leave.ts', () => ({ leavePage: vi.fn() }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ID = 'cs_sim_test';
const session: SimulatorSessionPayload = {
  id: ID,
  shopName: 'Badger Print Co.',
  status: 'open',
  currency: 'usd',
  total: 225.37,
  lines: [
    {
      name: 'cube.stl',
      description: 'Blue · Standard (3/5) · 1 × $12.00',
      imageUrl: '/p/cube.png',
      amount: 12,
    },
    { name: 'block.obj', description: 'Blue · Solid (5/5) · 10 × $22.46', imageUrl: null, amount: 213.37 },
  ],
  cancelUrl: 'http://shop.test/payment-cancel',
  successUrl: `http://shop.test/payment-success?session_id=${ID}`,
  expiresAt: '2026-11-26T00:00:00.000Z',
  prefill: null,
};
const lastAddress = {
  name: 'Ada Lovelace',
  line1: '1 Capitol Square',
  line2: 'Suite 2',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
  country: 'US',
};

type PayAnswer = { status: number; body: unknown };
let sessionAnswer: { status: number; body: unknown };
let payAnswers: PayAnswer[];
let paid: unknown[];

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  if (url === `/api/pay/simulator/${ID}`) {
    return Promise.resolve(Response.json(sessionAnswer.body, { status: sessionAnswer.status }));
  }
  if (url === `/api/pay/simulator/${ID}/pay`) {
    paid.push(JSON.parse(String(init?.body)));
    const answer = payAnswers.shift() ?? { status: 500, body: {} };
    return Promise.resolve(Response.json(answer.body, { status: answer.status }));
  }
  return Promise.resolve(Response.json({ error: 'not here' }, { status: 404 }));
}

let container: HTMLDivElement;
let root: Root;

async function mount() {
  const router = createMemoryRouter([{ path: '/pay/simulator/:sessionId', Component: SimulatorPage }], {
    initialEntries: [`/pay/simulator/${ID}`],
  });
  root = createRoot(container);
  await act(async () => root.render(<RouterProvider router={router} />));
}

async function until(check: () => boolean, what: string) {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}:\n${container.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

const field = (label: string) => {
  const el = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!el) throw new Error(`no field ${label}`);
  return document.getElementById(el.htmlFor) as HTMLInputElement | HTMLSelectElement;
};

function type(label: string, value: string) {
  const el = field(label);
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
  act(() => {
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

const button = (name: RegExp) =>
  [...container.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''))!;
const click = async (name: RegExp) => {
  await act(async () => button(name).click());
};
const text = () => container.textContent ?? '';

function fillAll(card = '4242 4242 4242 4242') {
  type('Full name', 'Ada Lovelace');
  type('Address line 1', '1 Capitol Square');
  type('City', 'Madison');
  type('State', 'WI');
  type('ZIP code', '53703');
  type('Card number', card);
  type('Expiry (MM / YY)', '12 / 39');
  type('CVC', '123');
}

beforeEach(async () => {
  sessionAnswer = { status: 200, body: session };
  payAnswers = [];
  paid = [];
  vi.mocked(leavePage).mockClear();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

describe('the simulator page', () => {
  it('shows the test mode banner, the shop, the lines, the total and the test cards', async () => {
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    expect(text()).toContain('TEST MODE');
    expect(container.querySelector('.sim-shop')?.textContent).toBe('Badger Print Co.');
    const lines = container.querySelectorAll('.sim-line');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.querySelector('img')?.getAttribute('src')).toBe('/p/cube.png');
    expect(lines[1]?.textContent).toContain('No Preview');
    expect(lines[1]?.textContent).toContain('$213.37');
    expect(text()).toContain('4242 4242 4242 4242 pays');
    expect(text()).toContain('4000 0000 0000 0002 is declined');
  });

  it('marks every invalid field before sending anything', async () => {
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    await click(/^Pay/);
    expect(paid).toEqual([]);
    const name = field('Full name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(name.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe('Enter the name of the person we ship to.');
    expect(error?.getAttribute('role')).toBe('alert');
    expect(container.querySelectorAll('[aria-invalid="true"]')).toHaveLength(8);
    expect(field('Card number').getAttribute('aria-describedby')).toMatch(/^sim-test-cards /);

    // Fixing a field clears its error; the state list follows the country.
    type('Full name', 'Ada');
    expect(field('Full name').hasAttribute('aria-invalid')).toBe(false);
    type('Country', 'CA');
    expect(container.textContent).toContain('Province or territory');
    expect([...(field('Province or territory') as HTMLSelectElement).options].map((o) => o.value)).toContain(
      'ON',
    );
    expect(field('Postal code')).toBeTruthy();
  });

  it('pays and sends the browser to the success page', async () => {
    payAnswers = [{ status: 200, body: { redirectUrl: session.successUrl } }];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    fillAll();
    await click(/^Pay/);
    await until(() => vi.mocked(leavePage).mock.calls.length > 0, 'the redirect');
    expect(leavePage).toHaveBeenCalledWith(session.successUrl);
    expect(paid).toEqual([
      {
        card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
        shipping: {
          name: 'Ada Lovelace',
          line1: '1 Capitol Square',
          line2: '',
          city: 'Madison',
          state: 'WI',
          postalCode: '53703',
          country: 'US',
        },
      },
    ]);
    expect(text()).toContain('Processing payment…');

    // Back from the success page through the back/forward cache: the session is asked for again.
    sessionAnswer = { status: 200, body: { ...session, status: 'complete' } };
    const back = Object.assign(new Event('pageshow'), { persisted: true });
    await act(async () => window.dispatchEvent(back));
    await until(() => text().includes('This checkout is paid'), 'the paid session');
  });

  it("fills in the customer's last name and address (editable): only the card is typed", async () => {
    sessionAnswer = { status: 200, body: { ...session, prefill: lastAddress } };
    payAnswers = [{ status: 200, body: { redirectUrl: session.successUrl } }];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    expect(field('Full name').value).toBe('Ada Lovelace');
    expect(field('Address line 1').value).toBe('1 Capitol Square');
    expect(field('Address line 2 (optional)').value).toBe('Suite 2');
    expect(field('City').value).toBe('Madison');
    expect(field('State').value).toBe('WI');
    expect(field('ZIP code').value).toBe('53703');
    expect(field('Country').value).toBe('US');
    expect(field('Card number').value).toBe('');
    type('Address line 2 (optional)', '');
    type('Card number', '4242 4242 4242 4242');
    type('Expiry (MM / YY)', '12 / 39');
    type('CVC', '123');
    await click(/^Pay/);
    await until(() => vi.mocked(leavePage).mock.calls.length > 0, 'the redirect');
    expect(paid).toEqual([
      {
        card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
        shipping: { ...lastAddress, line2: '' },
      },
    ]);
  });

  it("offers the regions Stripe Checkout offers, and shows the server's field error", async () => {
    payAnswers = [
      {
        status: 400,
        body: {
          error: 'Use letters, digits and punctuation only: no line breaks, tabs or text-direction marks.',
          field: 'shipping.name',
        },
      },
    ];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    const states = [...(field('State') as HTMLSelectElement).options].map((o) => o.value);
    expect(states).toEqual(expect.arrayContaining(['WI', 'DC', 'PR', 'GU', 'VI', 'AA', 'AE', 'AP']));
    fillAll();
    type('State', 'AE');
    type('ZIP code', '09001');
    await click(/^Pay/);
    await until(() => text().includes('no line breaks'), 'the field error');
    expect(field('Full name').getAttribute('aria-invalid')).toBe('true');
    expect((paid[0] as { shipping: { state: string } }).shipping.state).toBe('AE');
  });

  it('shows a declined card, keeps the form, and a 400 on its field', async () => {
    payAnswers = [
      { status: 402, body: { error: 'Your card was declined. Try another card.', field: 'card.number' } },
      { status: 400, body: { error: 'Your card number is invalid.', field: 'card.number' } },
    ];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    fillAll('4000 0000 0000 0002');
    await click(/^Pay/);
    await until(() => text().includes('Your card was declined. Try another card.'), 'the decline');
    const alert = container.querySelector('#sim-form-error');
    expect(alert?.getAttribute('role')).toBe('alert');
    expect(field('Card number').getAttribute('aria-describedby')).toContain('sim-form-error');
    expect(button(/^Pay/).disabled).toBe(false);

    type('Card number', '4242 4242 4242 4241');
    await click(/^Pay/);
    await until(() => text().includes('Your card number is invalid.'), 'the field error');
    expect(field('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(container.querySelector('#sim-form-error')).toBeNull();
    expect(leavePage).not.toHaveBeenCalled();
  });

  it('Cancel returns to the shop', async () => {
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    await click(/^Cancel$/);
    expect(leavePage).toHaveBeenCalledWith(session.cancelUrl);
  });

  it('an expired, a paid and an unknown session each say so, with a way back', async () => {
    sessionAnswer = { status: 200, body: { ...session, status: 'expired' } };
    await mount();
    await until(() => text().includes('This checkout has expired'), 'expired');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/#cart-section');
    expect(container.querySelector('form')).toBeNull();
    act(() => root.unmount());

    sessionAnswer = { status: 200, body: { ...session, status: 'complete' } };
    await mount();
    await until(() => text().includes('This checkout is paid'), 'complete');
    expect(container.querySelector('a')?.getAttribute('href')).toBe(session.successUrl);
    act(() => root.unmount());

    sessionAnswer = { status: 404, body: { error: 'This checkout does not exist.' } };
    await mount();
    await until(() => text().includes('Checkout unavailable'), 'not found');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/');
  });
});
