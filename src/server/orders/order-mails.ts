import { carrierName, trackingUrl } from '../../shared/carriers.ts';
import { statusLabel } from '../../shared/catalog.ts';
import { formatCents } from '../../shared/format.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type Order, type OutboxMail, orderEvents } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import { type Block, type MailBrand, renderMail } from '../mail/templates.ts';

// The mails an order's customer gets after paying (the confirmation is checkout/confirmation-mail.ts): each
// change of status, a refund, a note staff wrote for them; and the staff's own mail about a new flag. Each is
// queued in the transaction that made the change, and the timeline records it (kind 'mail').

export const TEST_ORDER_NOTE = 'Test order: no money was taken.';

/** An order paid through the shop's simulator: no money moved, and every mail about it says so. */
export const isTestOrder = (order: Pick<Order, 'paymentProvider'>) => order.paymentProvider === 'simulator';

/** The subject, marked for a test order. */
export function orderSubject(order: Pick<Order, 'paymentProvider'>, subject: string): string {
  return isTestOrder(order) ? `[TEST ORDER] ${subject}` : subject;
}

function customerMail(
  brand: MailBrand,
  order: Order,
  to: string,
  subject: string,
  blocks: Block[],
): OutboxMail {
  return renderMail(brand, to, orderSubject(order, subject), [
    ...(isTestOrder(order) ? [{ text: TEST_ORDER_NOTE }] : []),
    ...blocks,
    { action: { label: 'View My Orders', url: `${brand.publicUrl}/orders` } },
  ]);
}

const refundWords = (cents: number, currency: string) =>
  `We refunded ${formatCents(cents, currency)} to your card; depending on your bank it shows within 5-10 days.`;

/** The customer's mail for a move staff made: queued, printing, shipped (with tracking) or cancelled. */
export function statusMail(
  brand: MailBrand,
  order: Order,
  to: string,
  extra: { refundedCents?: number; reason?: string | null } = {},
): OutboxMail | null {
  const hello = { text: `Hello ${order.shippingName || 'there'},` };
  const id = `order #${order.id}`;
  switch (order.status) {
    case 'queued':
      return customerMail(brand, order, to, `Order #${order.id} is queued for printing`, [
        hello,
        { text: `good news: ${id} is in our print queue. We will mail you again when it ships.` },
      ]);
    case 'printing':
      return customerMail(brand, order, to, `Order #${order.id} is printing`, [
        hello,
        { text: `${id} is on our printers now. We will mail you the tracking number when it ships.` },
      ]);
    case 'shipped': {
      const url = trackingUrl(order.carrier, order.trackingNumber);
      return customerMail(brand, order, to, `Order #${order.id} has shipped`, [
        hello,
        {
          text: `${id} is on its way with ${carrierName(order.carrier)}. Tracking number: ${order.trackingNumber ?? ''}.`,
        },
        ...(url ? [{ action: { label: 'Track your parcel', url } }] : []),
      ]);
    }
    case 'cancelled':
      return customerMail(brand, order, to, `Order #${order.id} was cancelled`, [
        hello,
        { text: `we cancelled ${id}.${extra.reason ? ` ${extra.reason}` : ''}` },
        ...(extra.refundedCents ? [{ text: refundWords(extra.refundedCents, order.currency) }] : []),
        { text: 'If you have a question, reply to this mail.' },
      ]);
    default:
      return null;
  }
}

export function refundMail(
  brand: MailBrand,
  order: Order,
  to: string,
  cents: number,
  reason: string,
): OutboxMail {
  return customerMail(
    brand,
    order,
    to,
    `Refund for order #${order.id}: ${formatCents(cents, order.currency)}`,
    [
      { text: `Hello ${order.shippingName || 'there'},` },
      { text: refundWords(cents, order.currency) },
      ...(reason ? [{ text: `Reason: ${reason}` }] : []),
      { text: `The order stays ${statusLabel(order.status)}.` },
    ],
  );
}

export function noteMail(brand: MailBrand, order: Order, to: string, note: string): OutboxMail {
  return customerMail(brand, order, to, `A message about order #${order.id}`, [
    { text: `Hello ${order.shippingName || 'there'}, a message from us about order #${order.id}:` },
    { quote: note },
  ]);
}

/** To the shop's own address: a flag was raised on an order. */
export function flagMail(
  brand: MailBrand,
  config: Pick<Config, 'shopEmail'>,
  order: Order,
  label: string,
  details: string,
): OutboxMail {
  return renderMail(
    brand,
    config.shopEmail,
    orderSubject(order, `Order #${order.id} needs review: ${label}`),
    [
      { text: `Order #${order.id} (${statusLabel(order.status)}) was flagged: ${label}.` },
      { quote: details },
      { action: { label: 'Open the order', url: `${brand.publicUrl}/admin/orders/${order.id}` } },
    ],
  );
}

/** Queues a mail about an order and records it on the order's timeline. */
export async function queueOrderMail(
  tx: Db,
  order: Pick<Order, 'id'>,
  mail: OutboxMail,
  at: { actor: string; actorUserId?: number | null; now: Date },
): Promise<void> {
  await enqueueMail(tx, mail);
  await tx.insert(orderEvents).values({
    orderId: order.id,
    kind: 'mail',
    actor: at.actor,
    actorUserId: at.actorUserId ?? null,
    note: `Mail to ${mail.to}: ${mail.subject}`,
    metadata: { to: mail.to, subject: mail.subject },
    createdAt: at.now,
  });
}
