import { SHIPPING_COUNTRY_NAMES, type ShippingAddress } from '../../shared/address.ts';
import { colorName, strengthLabel } from '../../shared/catalog.ts';
import { formatCents, formatDate } from '../../shared/format.ts';
import type { OutboxMail } from '../db/schema.ts';
import { escapeHtml, type MailBrand } from '../mail/templates.ts';

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

export type Confirmation = {
  to: string;
  username: string;
  orderId: number;
  currency: string;
  totalCents: number;
  shippingCents: number;
  lines: ConfirmationLine[];
  shipping: ShippingAddress;
  /** YYYY-MM-DD */
  shipBy: string;
};

function lineFacts(l: ConfirmationLine): string {
  const facts = `${colorName(l.color)} · ${strengthLabel(l.strength)} (${l.strength}/5) · ${l.quantity} × ${formatCents(l.unitCents)}`;
  return l.discountPercent > 0 ? `${facts} · ${l.discountPercent}% quantity discount` : facts;
}

function addressLines(a: ShippingAddress): string[] {
  return [
    a.name,
    a.line1,
    a.line2,
    `${a.city}, ${a.state} ${a.postalCode}`,
    SHIPPING_COUNTRY_NAMES[a.country],
  ].filter((l) => l.trim() !== '');
}

export function confirmationMail(brand: MailBrand, c: Confirmation): OutboxMail {
  const ordersUrl = `${brand.publicUrl}/orders`;
  const total = formatCents(c.totalCents, c.currency);
  const shipBy = formatDate(`${c.shipBy}T12:00:00Z`);
  const shippingText = c.shippingCents > 0 ? formatCents(c.shippingCents) : 'Free';

  const text = [
    `Hello ${c.username},`,
    `thank you for your order! We received your payment for order #${c.orderId}.`,
    c.lines.map((l) => `- ${l.fileName}\n  ${lineFacts(l)}\n  ${formatCents(l.lineCents)}`).join('\n'),
    `Shipping: ${shippingText}\nTotal paid: ${total}`,
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
        }</td><td style="${cell}"><strong>${escapeHtml(l.fileName)}</strong><br><span style="color:#555">${escapeHtml(lineFacts(l))}</span></td><td style="${cell};text-align:right;white-space:nowrap">${escapeHtml(formatCents(l.lineCents))}</td></tr>`,
    )
    .join('');
  const html = [
    `<p>Hello ${escapeHtml(c.username)},</p>`,
    `<p>thank you for your order! We received your payment for <strong>order #${c.orderId}</strong>.</p>`,
    `<table style="border-collapse:collapse;width:100%;max-width:560px">${rows}`,
    `<tr><td></td><td style="${cell}">Shipping</td><td style="${cell};text-align:right">${escapeHtml(shippingText)}</td></tr>`,
    `<tr><td></td><td style="padding:8px"><strong>Total paid</strong></td><td style="padding:8px;text-align:right"><strong>${escapeHtml(total)}</strong></td></tr></table>`,
    `<p><strong>Ship to</strong><br>${addressLines(c.shipping).map(escapeHtml).join('<br>')}</p>`,
    `<p><strong>When it ships:</strong> we print and ship within about a week, by ${escapeHtml(shipBy)}. We will mail you the tracking number.</p>`,
    `<p><a href="${escapeHtml(ordersUrl)}" style="display:inline-block;padding:10px 18px;background:#007bff;color:#ffffff;border-radius:4px;text-decoration:none">View My Orders</a></p>`,
    `<p style="color:#555">${escapeHtml(brand.shopName)}<br><a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>`,
  ].join('\n');

  return {
    to: c.to,
    subject: `Order #${c.orderId} confirmed: ${total}`,
    text: `${text}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">${html}</body></html>`,
  };
}
