// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { TAX_WORDS } from '../../shared/shipping.ts';
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
  subtotal: 225.37,
  shipTo: 'US',
  // Standard is free from $75 of items; the days count from now to arrival (production included).
  shippingOptions: [
    { id: 'us-standard', name: 'US Standard', amount: 0, minDays: 6, maxDays: 8 },
    { id: 'us-expedited', name: 'US Expedited', amount: 19.95, minDays: 4, maxDays: 4 },
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

/** The shipping method's radio whose label starts with this name. */
const method = (name: string) => {
  const label = [...container.querySelectorAll('.sim-ship-option')].find((l) =>
    l.textContent?.startsWith(name),
  );
  if (!label) throw new Error(`no shipping method ${name}`);
  return label.querySelector('input[type="radio"]') as HTMLInputElement;
};
const choose = async (name: string) => {
  await act(async () => method(name).click());
};

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

    // Fixing a field clears its error.
    type('Full name', 'Ada');
    expect(field('Full name').hasAttribute('aria-invalid')).toBe(false);
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
        shippingOption: 'us-standard',
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
        shippingOption: 'us-standard',
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

describe('shipping methods, the country and tax', () => {
  const canada: SimulatorSessionPayload = {
    ...session,
    total: 114.95,
    subtotal: 100,
    lines: [
      { name: 'cube.stl', description: 'Blue · Solid (5/5) · 4 × $25.00', imageUrl: null, amount: 100 },
    ],
    shipTo: 'CA',
    shippingOptions: [
      { id: 'ca-standard', name: 'Canada Standard', amount: 14.95, minDays: 8, maxDays: 11 },
      { id: 'ca-expedited', name: 'Canada Expedited', amount: 34.95, minDays: 5, maxDays: 7 },
    ],
  };
  const summary = () => container.querySelector('.sim-summary')?.textContent ?? '';

  it('lists the methods as Stripe does, the first chosen; the summary sums them up with the tax note', async () => {
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    const group = [...container.querySelectorAll('fieldset')].find(
      (f) => f.querySelector('legend')?.textContent === 'Shipping method',
    );
    expect(group).toBeTruthy();
    const labels = [...(group?.querySelectorAll('label') ?? [])].map((l) => l.textContent);
    expect(labels).toEqual([
      'US Standard Arrives in 6–8 business days Free',
      'US Expedited Arrives in 4 business days $19.95',
    ]);
    expect(method('US Standard').checked).toBe(true);
    expect(method('US Expedited').checked).toBe(false);
    expect(method('US Standard').name).toBe(method('US Expedited').name);

    expect(container.querySelector('[data-testid="sim-subtotal"]')?.textContent).toBe('$225.37');
    expect(summary()).toContain('Shipping US Standard');
    expect(container.querySelector('[data-testid="sim-shipping"]')?.textContent).toBe('Free');
    expect(container.querySelector('[data-testid="sim-tax-note"]')?.textContent).toBe(TAX_WORDS.test);
    expect(container.querySelector('[data-testid="sim-total-due"]')?.textContent).toBe('$225.37 USD');

    // The address can only be in the cart's 'Ship to' country.
    const country = field('Country') as HTMLSelectElement;
    expect([...country.options].map((o) => [o.value, o.textContent])).toEqual([['US', 'United States']]);
  });

  it('another method updates the shipping, the total and the Pay button; the pay call names it', async () => {
    payAnswers = [{ status: 200, body: { redirectUrl: session.successUrl } }];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    await choose('US Expedited');
    expect(method('US Expedited').checked).toBe(true);
    expect(method('US Standard').checked).toBe(false);
    expect(container.querySelector('[data-testid="sim-shipping"]')?.textContent).toBe('$19.95');
    expect(summary()).toContain('Shipping US Expedited');
    expect(container.querySelector('[data-testid="sim-total"]')?.textContent).toBe('$245.32 USD');
    expect(container.querySelector('[data-testid="sim-total-due"]')?.textContent).toBe('$245.32 USD');
    expect(button(/^Pay/).textContent).toBe('Pay $245.32');

    await choose('US Standard');
    expect(button(/^Pay/).textContent).toBe('Pay $225.37');
    await choose('US Expedited');

    fillAll();
    await click(/^Pay/);
    await until(() => vi.mocked(leavePage).mock.calls.length > 0, 'the redirect');
    expect((paid[0] as { shippingOption: string }).shippingOption).toBe('us-expedited');
  });

  it("shows the server's refusal of the method next to the radio group", async () => {
    const refusal = 'Choose one of the shipping methods offered.';
    payAnswers = [{ status: 400, body: { error: refusal, field: 'shippingOption' } }];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    fillAll();
    await click(/^Pay/);
    await until(() => text().includes(refusal), 'the method error');
    const radio = method('US Standard');
    expect(radio.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(radio.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe(refusal);
    expect(error?.getAttribute('role')).toBe('alert');
    expect(error?.closest('fieldset')?.querySelector('legend')?.textContent).toBe('Shipping method');
    expect(container.querySelector('#sim-form-error')).toBeNull();

    // Choosing again clears it.
    await choose('US Expedited');
    expect(text()).not.toContain(refusal);
    expect(method('US Expedited').hasAttribute('aria-invalid')).toBe(false);
  });

  it('a Canadian checkout: the country fixed to Canada, its provinces, its methods; a US address fills the name only', async () => {
    sessionAnswer = { status: 200, body: { ...canada, prefill: lastAddress } };
    payAnswers = [{ status: 200, body: { redirectUrl: session.successUrl } }];
    await mount();
    await until(() => text().includes('Pay $114.95'), 'the form');
    const country = field('Country') as HTMLSelectElement;
    expect([...country.options].map((o) => [o.value, o.textContent])).toEqual([['CA', 'Canada']]);
    const provinces = [...(field('Province or territory') as HTMLSelectElement).options].map((o) => o.value);
    expect(provinces).toEqual(expect.arrayContaining(['ON', 'QC', 'BC', 'NU']));
    expect(provinces).not.toContain('WI');
    expect(field('Postal code').getAttribute('placeholder')).toBe('K1A 0B1');

    expect(field('Full name').value).toBe('Ada Lovelace');
    expect(field('Address line 1').value).toBe('');
    expect(field('City').value).toBe('');
    expect(field('Province or territory').value).toBe('');
    expect(document.activeElement).not.toBe(field('Card number'));

    const labels = [...container.querySelectorAll('.sim-ship-option')].map((l) => l.textContent);
    expect(labels).toEqual([
      'Canada Standard Arrives in 8–11 business days $14.95',
      'Canada Expedited Arrives in 5–7 business days $34.95',
    ]);
    expect(container.querySelector('[data-testid="sim-subtotal"]')?.textContent).toBe('$100.00');
    await choose('Canada Expedited');
    expect(button(/^Pay/).textContent).toBe('Pay $134.95');

    type('Address line 1', '111 Wellington St');
    type('City', 'Ottawa');
    type('Province or territory', 'ON');
    type('Postal code', 'K1A 0A9');
    type('Card number', '4242 4242 4242 4242');
    type('Expiry (MM / YY)', '12 / 39');
    type('CVC', '123');
    await click(/^Pay/);
    await until(() => vi.mocked(leavePage).mock.calls.length > 0, 'the redirect');
    expect(paid).toEqual([
      {
        card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
        shipping: {
          name: 'Ada Lovelace',
          line1: '111 Wellington St',
          line2: '',
          city: 'Ottawa',
          state: 'ON',
          postalCode: 'K1A 0A9',
          country: 'CA',
        },
        shippingOption: 'ca-expedited',
      },
    ]);
  });

  it('a session offering no method (made before them) pays as before: no choice, no shipping line', async () => {
    sessionAnswer = { status: 200, body: { ...session, shippingOptions: [] } };
    payAnswers = [{ status: 200, body: { redirectUrl: session.successUrl } }];
    await mount();
    await until(() => text().includes('Pay $225.37'), 'the form');
    expect(text()).not.toContain('Shipping method');
    expect(container.querySelector('[data-testid="sim-shipping"]')).toBeNull();
    fillAll();
    await click(/^Pay/);
    await until(() => vi.mocked(leavePage).mock.calls.length > 0, 'the redirect');
    expect((paid[0] as { shippingOption: string }).shippingOption).toBe('');
  });

  it('a session without the shipping fields cannot be shown', async () => {
    const { shippingOptions: _, ...old } = session;
    sessionAnswer = { status: 200, body: old };
    await mount();
    await until(() => text().includes('Checkout unavailable'), 'the failure');
  });
});
