import { describe, expect, it } from 'vitest';
import { type Confirmation, confirmationMail } from '../checkout/confirmation-mail.ts';
import type { Order, OutboxMail } from '../db/schema.ts';
import {
  contactMessageMail,
  escapeHtml,
  passwordChangedMail,
  passwordResetMail,
  signInLinkMail,
  verificationMail,
} from '../mail/templates.ts';
import { flagMail, noteMail, refundMail, statusMail } from '../orders/order-mails.ts';

// Issue #28 (docs/security.md 21): every mail the shop sends, fed markup and script wherever a customer or
// staff member can type (names, file names, notes, reasons, messages, a tracking number that got past the
// route's check): the HTML part shows it escaped and gains no element or attribute from it; the text part
// holds it as typed and is plain text (no tags, no entities).

const HOSTILE = [
  '<img src=x onerror=window.__xss=1>',
  '<script>window.__xss=1</script>',
  `" onmouseover="window.__xss=1`,
  `' onfocus='window.__xss=1`,
  '&lt;b&gt; &amp; </p>',
];
const H = HOSTILE.join(' ');
const BENIGN = 'Eve';

const brand = { shopName: 'Badger Print Co.', publicUrl: 'https://shop.example.com' };
const link = 'https://shop.example.com/api/verify-email?token=abc';

function order(value: string, status: Order['status'], paymentProvider = 'stripe'): Order {
  return {
    id: 42,
    status,
    shippingName: value,
    carrier: 'ups',
    trackingNumber: value,
    currency: 'usd',
    paymentProvider,
  } as unknown as Order;
}

function confirmation(value: string): Confirmation {
  return {
    to: 'eve@example.com',
    username: value,
    orderId: 42,
    testMode: true,
    currency: 'usd',
    totalCents: 2400,
    shippingCents: 500,
    shippingMethod: value,
    taxCents: 100,
    taxLines: [{ amountCents: 100, label: value }],
    lines: [
      {
        fileName: `${value}.stl`,
        color: '#007bff',
        strength: 3,
        quantity: 1,
        unitCents: 1800,
        lineCents: 1800,
        discountPercent: 0,
        imageUrl: 'https://shop.example.com/api/models/m1/preview.png?sig=a&color=red',
      },
    ],
    shipping: {
      name: value,
      line1: value,
      line2: value,
      city: value,
      state: 'WI',
      postalCode: value,
      country: 'United States',
    },
    shipBy: '2030-06-03',
    arrivesFrom: '2030-06-05',
    arrivesBy: '2030-06-07',
  };
}

/** Every mail template, each with `value` wherever a person can type something into it. */
const MAILS: [string, (value: string) => OutboxMail][] = [
  ['verification', (v) => verificationMail(brand, { to: 'e@example.com', username: v, link })],
  ['password reset', (v) => passwordResetMail(brand, { to: 'e@example.com', username: v, link })],
  ['password changed', (v) => passwordChangedMail(brand, { to: 'e@example.com', username: v })],
  ['sign-in link', (v) => signInLinkMail(brand, { to: 'e@example.com', username: v, link })],
  [
    'contact message',
    (v) =>
      contactMessageMail(brand, {
        to: 'shop@example.com',
        name: v,
        email: 'e@example.com',
        message: v,
        username: v,
      }),
  ],
  ['order queued', (v) => statusMail(brand, order(v, 'queued'), 'e@example.com')!],
  ['order printing', (v) => statusMail(brand, order(v, 'printing', 'simulator'), 'e@example.com')!],
  ['order shipped', (v) => statusMail(brand, order(v, 'shipped'), 'e@example.com')!],
  [
    'order cancelled',
    (v) => statusMail(brand, order(v, 'cancelled'), 'e@example.com', { refundedCents: 500, reason: v })!,
  ],
  ['refund', (v) => refundMail(brand, order(v, 'paid'), 'e@example.com', 500, v)],
  ['note', (v) => noteMail(brand, order(v, 'paid'), 'e@example.com', v)],
  ['flag (to staff)', (v) => flagMail(brand, { shopEmail: 'shop@example.com' }, order(v, 'paid'), v, v)],
  ['confirmation', (v) => confirmationMail(brand, confirmation(v))],
];

/** The element and attribute names of an HTML text, in order: what its markup is, whatever its text. */
function markup(html: string): string[] {
  return [...html.matchAll(/<(\/?[a-z!]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*\/?>/gi)].map(
    ([, tag, attrs]) =>
      `${tag}${[...attrs!.matchAll(/\s+([a-z-]+)(?:="[^"]*")?/gi)].map((a) => ` ${a[1]}`).join('')}`,
  );
}

describe('every mail template fed markup and script', () => {
  it.each(MAILS)(
    '%s: the HTML part escapes it and gains no element; the text part is it, as plain text',
    (_name, make) => {
      const hostile = make(H);
      const benign = make(BENIGN);

      // HTML: the value appears escaped, never raw, and the markup is the same as for a harmless value.
      expect(hostile.html).toContain(escapeHtml(H));
      for (const raw of ['<img src=x', '<script', '" onmouseover=', "' onfocus="])
        expect(hostile.html).not.toContain(raw);
      // A '</p>' typed is text: the part has exactly as many as the benign one.
      expect(markup(hostile.html)).toEqual(markup(benign.html));
      expect(markup(hostile.html).length).toBeGreaterThan(3);

      // Text: the value as typed, and nothing else that looks like HTML.
      expect(hostile.text).toContain(H);
      const rest = hostile.text.replaceAll(H, '');
      expect(rest).not.toMatch(/<\/?[a-z][^>]*>|&(?:lt|gt|amp|quot|#\d+);/i);
      expect(benign.text).not.toMatch(/<\/?[a-z][^>]*>|&(?:lt|gt|amp|quot|#\d+);/i);
    },
  );

  it('covers each kind of mail once, and the escaping itself', () => {
    expect(new Set(MAILS.map(([name]) => name)).size).toBe(MAILS.length);
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
