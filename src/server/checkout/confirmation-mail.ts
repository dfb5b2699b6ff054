import { formatCents } from '../../shared/format.ts';
import { formatDayRange, formatShipDay } from '../../shared/shipping.ts';
import type { OutboxMail } from '../db/schema.ts';
import { escapeHtml, type MailBrand } from '../mail/templates.ts';
import { orderSubject, TEST_ORDER_NOTE } from '../orders/order-mails.ts';
import { describeLine } from './line-words.ts';

// The order confirmation (plain text and HTML): order number, every line with its preview, color,
// strength, quantity and price; the subtotal, the shipping method and its price, the taxes and the total;
// the address, the day it is expected to leave the shop and the arrival window, and a link to My Orders.
// The dates are estimates (the print queue, the carrier's usual transit time) and the words say so.

export type ConfirmationLine = {
  fileName: string;
  color: string;
  strength: number;
  quantity: number;
  unitCents: number;
  lineCents: number;
  discountPercent: number;
  /** A signed, absolute preview URL (mail clients fetch images without the customer's cookie). */
  imageUrl: string | null;
};

/** The address as the order keeps it, country spelled out. */
export type MailAddress = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
};

export type Confirmation = {
  to: string;
  username: string;
  orderId: number;
  /** Paid through the simulator: the subject and body say no money was taken. */
  testMode: boolean;
  currency: string;
  totalCents: number;
  /** The items; without it, the sum of the lines. */
  subtotalCents?: number;
  /** The chosen method's price (0: free). */
  shippingCents: number;
  /** The chosen method's name ('US Standard'); none: the line says only 'Shipping'. */
  shippingMethod?: string | null;
  /** Tax the payment provider charged (0 or absent: no tax line). */
  taxCents?: number;
  /** The provider's breakdown; shown line by line when it adds up to taxCents, else one 'Tax' line. */
  taxLines?: { amountCents: number; label: string }[];
  lines: ConfirmationLine[];
  shipping: MailAddress | null;
  /** YYYY-MM-DD: the day the order is expected to leave the shop; empty: not known. */
  shipBy: string;
  /** YYYY-MM-DD: the arrival window (ship-by + the method's transit days); both or none. */
  arrivesFrom?: string | null;
  arrivesBy?: string | null;
};

type MoneyRow = { label: string; amount: string };

/** Subtotal, shipping, taxes: the rows above the total, in the order the total adds them. */
function moneyRows(c: Confirmation): MoneyRow[] {
  const subtotal = c.subtotalCents ?? c.lines.reduce((n, l) => n + l.lineCents, 0);
  const rows: MoneyRow[] = [
    { label: 'Subtotal', amount: formatCents(subtotal) },
    {
      label: c.shippingMethod ? `Shipping (${c.shippingMethod})` : 'Shipping',
      amount: c.shippingCents > 0 ? formatCents(c.shippingCents) : 'Free',
    },
  ];
  const tax = c.taxCents ?? 0;
  if (tax > 0) {
    const lines = (c.taxLines ?? []).filter((l) => l.amountCents !== 0);
    const addsUp = lines.length > 0 && lines.reduce((n, l) => n + l.amountCents, 0) === tax;
    if (addsUp) {
      for (const l of lines)
        rows.push({ label: l.label.trim() || 'Tax', amount: formatCents(l.amountCents) });
    } else rows.push({ label: 'Tax', amount: formatCents(tax) });
  } else if (c.testMode) {
    rows.push({ label: 'Tax', amount: 'None (test order: no tax was charged)' });
  }
  return rows;
}

/** When it leaves and when it may arrive, as estimates: the words promise no more than the dates. */
function whenWords(c: Confirmation): string[] {
  const words: string[] = [];
  if (/^\d{4}-\d{2}-\d{2}$/.test(c.shipBy)) {
    words.push(
      `Ships by ${formatShipDay(c.shipBy)}: the day we expect your order to leave our shop, estimated from our print queue, not a guarantee.`,
    );
    if (c.arrivesFrom && c.arrivesBy) {
      words.push(
        `Expected to arrive ${formatDayRange(c.arrivesFrom, c.arrivesBy)} (estimate from the carrier's usual transit time).`,
      );
    }
  } else {
    words.push('We print and ship within about a week.');
  }
  words.push('We will mail you the tracking number when it ships.');
  return words;
}

function addressLines(a: MailAddress | null): string[] {
  if (!a) return ['(no address yet: we will ask you for it)'];
  return [a.name, a.line1, a.line2, `${a.city}, ${a.state} ${a.postalCode}`, a.country].filter(
    (l) => l.trim() !== '',
  );
}

export function confirmationMail(brand: MailBrand, c: Confirmation): OutboxMail {
  const ordersUrl = `${brand.publicUrl}/orders`;
  const total = formatCents(c.totalCents, c.currency);
  const money = moneyRows(c);
  const when = whenWords(c);

  const received = c.testMode
    ? `thank you for your order! Order #${c.orderId} went through the shop's test checkout.`
    : `thank you for your order! We received your payment for order #${c.orderId}.`;
  const totalLabel = c.testMode ? 'Total (test order, not charged)' : 'Total paid';
  const text = [
    ...(c.testMode ? [TEST_ORDER_NOTE] : []),
    `Hello ${c.username},`,
    received,
    c.lines.map((l) => `- ${l.fileName}\n  ${describeLine(l)}\n  ${formatCents(l.lineCents)}`).join('\n'),
    [...money.map((r) => `${r.label}: ${r.amount}`), `${totalLabel}: ${total}`].join('\n'),
    `Ship to:\n${addressLines(c.shipping).join('\n')}`,
    `When it ships:\n${when.join('\n')}`,
    `Follow your order on My Orders: ${ordersUrl}`,
    `${brand.shopName}\n${brand.publicUrl}`,
  ].join('\n\n');

  const cell = 'padding:8px;border-bottom:1px solid #e5e5e5;vertical-align:top';
  const rows = c.lines
    .map(
      (l) =>
        `<tr><td style="${cell};width:72px">${
          l.imageUrl
            ? `<img src="${escapeHtml(l.imageUrl)}" width="64" height="64" alt="Preview of ${escapeHtml(l.fileName)}" style="display:block;border-radius:4px;background:#f1f3f5">`
            : 'No Preview'
        }</td><td style="${cell}"><strong>${escapeHtml(l.fileName)}</strong><br><span style="color:#555">${escapeHtml(describeLine(l))}</span></td><td style="${cell};text-align:right;white-space:nowrap">${escapeHtml(formatCents(l.lineCents))}</td></tr>`,
    )
    .join('');
  const html = [
    ...(c.testMode ? [`<p><strong>${escapeHtml(TEST_ORDER_NOTE)}</strong></p>`] : []),
    `<p>Hello ${escapeHtml(c.username)},</p>`,
    `<p>${escapeHtml(received)}</p>`,
    `<table style="border-collapse:collapse;width:100%;max-width:560px">${rows}`,
    ...money.map(
      (r) =>
        `<tr><td></td><td style="${cell}">${escapeHtml(r.label)}</td><td style="${cell};text-align:right">${escapeHtml(r.amount)}</td></tr>`,
    ),
    `<tr><td></td><td style="padding:8px"><strong>${escapeHtml(totalLabel)}</strong></td><td style="padding:8px;text-align:right"><strong>${escapeHtml(total)}</strong></td></tr></table>`,
    `<p><strong>Ship to</strong><br>${addressLines(c.shipping).map(escapeHtml).join('<br>')}</p>`,
    `<p><strong>When it ships</strong><br>${when.map(escapeHtml).join('<br>')}</p>`,
    `<p><a href="${escapeHtml(ordersUrl)}" style="display:inline-block;padding:10px 18px;background:#007bff;color:#ffffff;border-radius:4px;text-decoration:none">View My Orders</a></p>`,
    `<p style="color:#555">${escapeHtml(brand.shopName)}<br><a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>`,
  ].join('\n');

  return {
    to: c.to,
    subject: orderSubject(
      { paymentProvider: c.testMode ? 'simulator' : 'stripe' },
      `Order #${c.orderId} confirmed: ${total}`,
    ),
    text: `${text}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">${html}</body></html>`,
  };
}
