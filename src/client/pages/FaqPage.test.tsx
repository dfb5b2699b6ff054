// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SHIPPING, type ShopInfoPayload, TAX_WORDS } from '../../shared/shipping.ts';
import { forgetShopInfo } from '../shop-info.ts';
import FaqPage from './FaqPage.tsx';

// The FAQ says what the shop's checkout does (GET /api/shop): its tax handling and its shipping methods,
// after the specified sentences, which it shows alone until (or unless) the shop's answer is known.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
let answer: () => Promise<Response>;

async function mount() {
  root = createRoot(container);
  await act(async () =>
    root.render(
      <MemoryRouter>
        <FaqPage />
      </MemoryRouter>,
    ),
  );
}

async function until(check: () => boolean, what: string) {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}:\n${container.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

const answerOf = (summary: string) =>
  [...container.querySelectorAll('details')].find(
    (d) => d.querySelector('summary')?.textContent === summary,
  )!;
const byTestId = (id: string) => container.querySelector(`[data-testid="${id}"]`);

beforeEach(() => {
  forgetShopInfo();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) =>
      String(input) === '/api/shop' ? answer() : Promise.resolve(Response.json({}, { status: 404 })),
    ),
  );
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

describe('FaqPage', () => {
  it("says what happens to taxes and lists each country's shipping methods", async () => {
    const info: ShopInfoPayload = {
      testMode: false,
      paymentMode: 'stripe-live',
      tax: 'automatic',
      shipping: DEFAULT_SHIPPING,
    };
    answer = () => Promise.resolve(Response.json(info));
    await mount();
    await until(() => !!byTestId('faq-shipping'), 'the shop info');
    expect(answerOf('How much does a print cost?').textContent).toContain(
      `Prices exclude taxes, which are confirmed at checkout. ${TAX_WORDS.automatic}`,
    );
    const shipping = answerOf('Where do you ship, and how fast?');
    expect(shipping.textContent).toContain('Orders are usually printed and shipped within 1 week.');
    expect([...shipping.querySelectorAll('strong')].map((s) => s.textContent)).toEqual([
      'United States',
      'Canada',
    ]);
    expect([...shipping.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'US Standard: $6.95, 3-5 business days in transit, free on orders from $75.00.',
      'US Expedited: $19.95, 1-2 business days in transit.',
      'Canada Standard: $14.95, 5-8 business days in transit, free on orders from $150.00.',
      'Canada Expedited: $34.95, 2-4 business days in transit.',
    ]);
  });

  it('says no tax is charged in test mode', async () => {
    answer = () =>
      Promise.resolve(
        Response.json({ testMode: true, paymentMode: 'simulator', tax: 'test', shipping: DEFAULT_SHIPPING }),
      );
    await mount();
    await until(() => !!byTestId('faq-tax'), 'the shop info');
    expect(byTestId('faq-tax')?.textContent).toBe(` ${TAX_WORDS.test}`);
  });

  it("keeps the specified sentences alone when the shop's answer fails", async () => {
    answer = () => Promise.resolve(Response.json({ error: 'Something went wrong.' }, { status: 500 }));
    await mount();
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(vi.mocked(fetch)).toHaveBeenCalledWith('/api/shop', expect.anything());
    expect(answerOf('How much does a print cost?').textContent).toMatch(
      /Prices exclude taxes, which are confirmed at checkout\.$/,
    );
    expect(byTestId('faq-shipping')).toBeNull();
  });
});
