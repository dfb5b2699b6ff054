import { describe, expect, it } from 'vitest';
import { type Confirmation, confirmationMail } from './confirmation-mail.ts';

// The confirmation mail's money and dates: subtotal, the shipping method and its price, the taxes as the
// provider charged them, the total; the ship-by day and the arrival window as estimates, never promises.

const brand = { shopName: 'Badger Print Co.', publicUrl: 'https://shop.example' };

const base: Confirmation = {
  to: 'ada@example.com',
  username: 'ada',
  orderId: 42,
  testMode: false,
  currency: 'usd',
  totalCents: 3266,
  subtotalCents: 2400,
  shippingCents: 695,
  shippingMethod: 'US Standard',
  taxCents: 171,
  taxLines: [{ amountCents: 171, label: 'Sales tax 5.5 % (WI)' }],
  lines: [
    {
      fileName: 'bracket.stl',
      color: '#dc3545',
      strength: 4,
      quantity: 2,
      unitCents: 1200,
      lineCents: 2400,
      discountPercent: 0,
      imageUrl: 'https://shop.example/preview.png?sig=a&b',
    },
  ],
  shipping: {
    name: 'Ada Lovelace',
    line1: '1 Main St',
    line2: '',
    city: 'Madison',
    state: 'WI',
    postalCode: '53703',
    country: 'United States',
  },
  shipBy: '2026-12-01',
  arrivesFrom: '2026-12-03',
  arrivesBy: '2026-12-07',
};

const mail = (over: Partial<Confirmation> = {}) => confirmationMail(brand, { ...base, ...over });

describe('confirmationMail: money', () => {
  it('lists the items, the subtotal, the shipping method and price, the tax lines and the total', () => {
    const m = mail();
    expect(m.subject).toBe('Order #42 confirmed: $32.66 USD');
    expect(m.text).toContain('- bracket.stl\n');
    expect(m.text).toContain(
      [
        'Subtotal: $24.00',
        'Shipping (US Standard): $6.95',
        'Sales tax 5.5 % (WI): $1.71',
        'Total paid: $32.66 USD',
      ].join('\n'),
    );
    expect(m.html).toContain('>Subtotal</td>');
    expect(m.html).toContain('>Shipping (US Standard)</td>');
    expect(m.html).toContain('>$6.95</td>');
    expect(m.html).toContain('>Sales tax 5.5 % (WI)</td>');
    expect(m.html).toContain('>$1.71</td>');
    expect(m.html).toContain('<strong>$32.66 USD</strong>');
    expect(m.text).not.toContain('no tax was charged');
  });

  it('says Free for free shipping, with or without a method', () => {
    const free = mail({ shippingCents: 0, totalCents: 2571 });
    expect(free.text).toContain('Shipping (US Standard): Free\n');
    expect(free.html).toContain('>Shipping (US Standard)</td><td style="padding:8px;');
    expect(free.html).toMatch(/>Free<\/td>/);
    const none = mail({ shippingCents: 0, shippingMethod: null, totalCents: 2571 });
    expect(none.text).toContain('Subtotal: $24.00\nShipping: Free\n');
  });

  it('shows each of several tax lines, one Tax line without labels, none without tax', () => {
    const two = mail({
      shippingMethod: 'Canada Standard',
      shippingCents: 1495,
      taxCents: 507,
      taxLines: [
        { amountCents: 195, label: 'GST 5 %' },
        { amountCents: 312, label: 'PST 8 %' },
      ],
      totalCents: 4402,
    });
    expect(two.text).toContain(
      'Shipping (Canada Standard): $14.95\nGST 5 %: $1.95\nPST 8 %: $3.12\nTotal paid',
    );
    const unlabelled = mail({ taxLines: [] });
    expect(unlabelled.text).toContain('Shipping (US Standard): $6.95\nTax: $1.71\nTotal paid');
    expect(mail({ taxLines: undefined }).text).toContain('\nTax: $1.71\n');
    // A breakdown that does not add up to the tax charged is not shown as if it did.
    expect(mail({ taxLines: [{ amountCents: 100, label: 'Sales tax' }] }).text).toContain('\nTax: $1.71\n');
    const untaxed = mail({ taxCents: 0, taxLines: [], totalCents: 3095 });
    expect(untaxed.text).toContain('Shipping (US Standard): $6.95\nTotal paid: $30.95 USD');
    expect(untaxed.text).not.toMatch(/tax/i);
  });

  it('escapes the method and tax labels in HTML', () => {
    const m = mail({
      shippingMethod: 'Rush <b>&</b>',
      taxLines: [{ amountCents: 171, label: '"Tax" <script>' }],
    });
    expect(m.html).toContain('Shipping (Rush &lt;b&gt;&amp;&lt;/b&gt;)');
    expect(m.html).toContain('&quot;Tax&quot; &lt;script&gt;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).not.toContain('<b>&</b>');
  });

  it('works without the new fields: subtotal from the lines, plain Shipping, no tax, no window', () => {
    const m = mail({
      subtotalCents: undefined,
      shippingMethod: undefined,
      taxCents: undefined,
      taxLines: undefined,
      arrivesFrom: undefined,
      arrivesBy: undefined,
      shippingCents: 0,
      totalCents: 2400,
    });
    expect(m.text).toContain('Subtotal: $24.00\nShipping: Free\nTotal paid: $24.00 USD');
    expect(m.text).toContain('Ships by Tue, Dec 1');
    expect(m.text).not.toContain('Expected to arrive');
  });
});

describe('confirmationMail: dates', () => {
  it('gives the ship-by day as the expected day it leaves, and the arrival window as an estimate', () => {
    const m = mail();
    expect(m.text).toContain(
      'Ships by Tue, Dec 1: the day we expect your order to leave our shop, estimated from our print queue, not a guarantee.',
    );
    expect(m.text).toContain("Expected to arrive Dec 3-7 (estimate from the carrier's usual transit time).");
    expect(m.text).toContain('We will mail you the tracking number when it ships.');
    expect(m.text).not.toMatch(/guaranteed|will arrive|arrives by/i);
    expect(m.html).toContain('Ships by Tue, Dec 1');
    expect(m.html).toContain(
      'Expected to arrive Dec 3-7 (estimate from the carrier&#39;s usual transit time).',
    );
  });

  it('spells a window across months, and leaves it out when half of it is missing', () => {
    expect(mail({ arrivesFrom: '2026-11-30', arrivesBy: '2026-12-02' }).text).toContain(
      'Expected to arrive Nov 30-Dec 2 (',
    );
    expect(mail({ arrivesFrom: '2026-12-03', arrivesBy: null }).text).not.toContain('Expected to arrive');
    expect(mail({ arrivesFrom: null, arrivesBy: null }).html).not.toContain('Expected to arrive');
  });

  it('says no date when none is known, rather than an invalid one', () => {
    const m = mail({ shipBy: '', arrivesFrom: null, arrivesBy: null });
    expect(m.text).toContain('We print and ship within about a week.');
    expect(m.text).not.toMatch(/Ships by|Invalid/);
    expect(m.html).not.toMatch(/Ships by|Invalid/);
  });
});

describe('confirmationMail: test orders', () => {
  it('marks the subject and body, and says no tax was charged', () => {
    const m = mail({ testMode: true, taxCents: 0, taxLines: [], totalCents: 3095 });
    expect(m.subject).toBe('[TEST ORDER] Order #42 confirmed: $30.95 USD');
    expect(m.text.startsWith('Test order: no money was taken.')).toBe(true);
    expect(m.text).toContain("went through the shop's test checkout");
    expect(m.text).toContain(
      'Shipping (US Standard): $6.95\nTax: None (test order: no tax was charged)\nTotal (test order, not charged): $30.95 USD',
    );
    expect(m.html).toContain('None (test order: no tax was charged)');
    expect(m.html).toContain('Total (test order, not charged)');
  });

  it('says nothing about test tax for a live order', () => {
    const m = mail({ taxCents: 0, taxLines: [], totalCents: 3095 });
    expect(m.subject).toBe('Order #42 confirmed: $30.95 USD');
    expect(m.text).not.toContain('test');
  });
});
