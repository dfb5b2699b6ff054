import { formatCents, formatDate } from '../../shared/format.ts';
import type { OutboxMail } from '../db/schema.ts';
import { escapeHtml, type MailBrand } from '../mail/templates.ts';
import { orderSubject, TEST_ORDER_NOTE } from '../orders/order-mails.ts';
import { describeLine } from './line-words.ts';

// The order confirmation (plain text and HTML): order number, every line with its preview, color,
// strength, quantity and price, the total, the address, when it ships, and a link to My Orders.

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
  shippingCents: number;
  lines: ConfirmationLine[];
  shipping: MailAddress | null;
  /** YYYY-MM-DD */
  shipBy: string;
};

function addressLines(a: MailAddress | null): string[] {
  if (!a) return ['(no address yet: we will ask you for it)'];
  return [a.name, a.line1, a.line2, `${a.city}, ${a.state} ${a.postalCode}`, a.country].filter(
    (l) => l.trim() !== '',
  );
}

export function confirmationMail(brand: MailBrand, c: Confirmation): OutboxMail {
  const ordersUrl = `${brand.publicUrl}/orders`;
  const total = formatCents(c.totalCents, c.currency);
  const shipBy = formatDate(`${c.shipBy}T12:00:00Z`);
  const shippingText = c.shippingCents > 0 ? formatCents(c.shippingCents) : 'Free';

  const received = c.testMode
    ? `thank you for your order! Order #${c.orderId} went through the shop's test checkout.`
    : `thank you for your order! We received your payment for order #${c.orderId}.`;
  const totalLabel = c.testMode ? 'Total (test order, not charged)' : 'Total paid';
  const text = [
    ...(c.testMode ? [TEST_ORDER_NOTE] : []),
    `Hello ${c.username},`,
    received,
    c.lines.map((l) => `- ${l.fileName}\n  ${describeLine(l)}\n  ${formatCents(l.lineCents)}`).join('\n'),
    `Shipping: ${shippingText}\n${totalLabel}: ${total}`,
    `Ship to:\n${addressLines(c.shipping).join('\n')}`,
    `When it ships: we print and ship within about a week, by ${shipBy}. We will mail you the tracking number.`,
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
    `<tr><td></td><td style="${cell}">Shipping</td><td style="${cell};text-align:right">${escapeHtml(shippingText)}</td></tr>`,
    `<tr><td></td><td style="padding:8px"><strong>${escapeHtml(totalLabel)}</strong></td><td style="padding:8px;text-align:right"><strong>${escapeHtml(total)}</strong></td></tr></table>`,
    `<p><strong>Ship to</strong><br>${addressLines(c.shipping).map(escapeHtml).join('<br>')}</p>`,
    `<p><strong>When it ships:</strong> we print and ship within about a week, by ${escapeHtml(shipBy)}. We will mail you the tracking number.</p>`,
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
