import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SHIPPING, type ShopInfoPayload } from '../shared/shipping.ts';
import { forgetShopInfo, loadShopInfo, methodWords, readShopInfo, transitWords } from './shop-info.ts';

// GET /api/shop, asked once and read without a schema library; and the words the FAQ makes of it.

const info: ShopInfoPayload = {
  testMode: true,
  paymentMode: 'simulator',
  tax: 'test',
  shipping: DEFAULT_SHIPPING,
};

beforeEach(() => forgetShopInfo());
afterEach(() => vi.unstubAllGlobals());

describe('readShopInfo', () => {
  it('reads the answer, and refuses one it cannot use', () => {
    expect(readShopInfo(JSON.parse(JSON.stringify(info)))).toEqual(info);
    expect(readShopInfo({ ...info, tax: 'vat' })).toBeNull();
    expect(readShopInfo({ ...info, shipping: { US: DEFAULT_SHIPPING.US } })).toBeNull();
    const [first] = DEFAULT_SHIPPING.US;
    expect(
      readShopInfo({ ...info, shipping: { ...DEFAULT_SHIPPING, US: [{ ...first, priceCents: -1 }] } }),
    ).toBeNull();
    expect(readShopInfo({ loggedIn: false })).toBeNull();
  });
});

describe('loadShopInfo', () => {
  it('asks once for every page, and again after a failed call', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(Response.json({ error: 'Something went wrong.' }, { status: 500 }))
      .mockResolvedValue(Response.json(info));
    vi.stubGlobal('fetch', fetch);
    expect(await loadShopInfo()).toBeNull();
    const [a, b] = await Promise.all([loadShopInfo(), loadShopInfo()]);
    expect(a).toEqual(info);
    expect(b).toBe(a);
    expect(await loadShopInfo()).toBe(a);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/shop');
  });

  it('answers null when the network fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect(await loadShopInfo()).toBeNull();
  });
});

describe('words', () => {
  it('says the transit time in business days', () => {
    expect(transitWords({ min: 3, max: 5 })).toBe('3-5 business days');
    expect(transitWords({ min: 1, max: 1 })).toBe('1 business day');
    expect(transitWords({ min: 2, max: 2 })).toBe('2 business days');
  });

  it('says a method with its price, transit time and free-shipping threshold', () => {
    expect(DEFAULT_SHIPPING.US.map(methodWords)).toEqual([
      'US Standard: $6.95, 3-5 business days in transit, free on orders from $75.00.',
      'US Expedited: $19.95, 1-2 business days in transit.',
    ]);
    const [first] = DEFAULT_SHIPPING.CA;
    expect(methodWords({ ...first!, priceCents: 0 })).toBe(
      'Canada Standard: free, 5-8 business days in transit.',
    );
  });
});
