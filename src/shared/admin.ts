import { z } from 'zod';
import { CARRIER_CODES, TRACKING_MSG, TRACKING_NUMBER } from './carriers.ts';
import { ORDER_STATUSES, SHIPPING_COUNTRIES } from './catalog.ts';
import { taxLine } from './shipping.ts';

// The back office's payloads (docs/api.md, "Admin"): one schema for the server's parsing and the panel's
// types. Money here is whole cents (the panel formats it); dates are ISO strings.

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.');
const orderStatus = z.enum(ORDER_STATUSES);
const flagValue = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** The board's tabs: every status, all, and "needs review" (orders with an open flag), shown first. */
export const ADMIN_TABS = [
  'review',
  'all',
  'paid',
  'queued',
  'printing',
  'shipped',
  'cancelled',
  'pending',
  'failed',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** GET /api/admin/orders and /api/admin/orders.csv */
export const adminOrdersQuery = z.object({
  status: z.union([orderStatus, z.literal('')]).optional(),
  q: z.string().trim().max(200, 'The search is too long.').optional(),
  from: z.union([isoDay, z.literal('')]).optional(),
  to: z.union([isoDay, z.literal('')]).optional(),
  flagged: z.union([flagValue, z.literal('').transform(() => undefined)]).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuery>;

export const adminOrderRow = z.object({
  id: z.number(),
  createdAt: z.string(),
  status: orderStatus,
  /** The name shipped to, else the username. */
  customerName: z.string(),
  username: z.string(),
  email: z.string(),
  /** Pieces in all (sum of quantities). */
  itemCount: z.number(),
  totalCents: z.number(),
  currency: z.string(),
  shipBy: z.string().nullable(),
  /** Not shipped, and the ship-by day has passed in the shop's time zone. */
  late: z.boolean(),
  openFlags: z.number(),
  /** Paid through the simulator: no money was taken. */
  testMode: z.boolean(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRow>;

export const adminOrderCounts = z.object({
  all: z.number(),
  flagged: z.number(),
  pending: z.number(),
  paid: z.number(),
  queued: z.number(),
  printing: z.number(),
  shipped: z.number(),
  failed: z.number(),
  cancelled: z.number(),
});
export type AdminOrderCounts = z.infer<typeof adminOrderCounts>;

export const adminOrderList = z.object({
  orders: z.array(adminOrderRow),
  /** Orders matching the filters (all pages). */
  total: z.number(),
  /** Per status (and flagged), within the search and date range but whatever the status filter. */
  counts: adminOrderCounts,
  page: z.number(),
  pageSize: z.number(),
});
export type AdminOrderList = z.infer<typeof adminOrderList>;

const xyz = z.object({ x: z.number(), y: z.number(), z: z.number() });

export const adminOrderItem = z.object({
  id: z.number(),
  modelId: z.string().nullable(),
  fileName: z.string(),
  /** The preview (same-origin, the admin's cookie opens it), or null. */
  previewUrl: z.string().nullable(),
  color: z.string(),
  strength: z.number(),
  quantity: z.number(),
  notes: z.string(),
  unitCents: z.number(),
  lineCents: z.number(),
  discountPercent: z.number(),
  /** As ordered (mm, after any rescale), or null when the model row is gone. */
  dimensions: xyz.nullable(),
  volumeCm3: z.number().nullable(),
  /** Per piece, as the price assumed. */
  grams: z.number().nullable(),
  printHours: z.number().nullable(),
  printedAt: z.string().nullable(),
  reprints: z.number(),
  /** Shells the analysis turned outward: check the print. */
  correctedShells: z.number(),
});
export type AdminOrderItem = z.infer<typeof adminOrderItem>;

export const adminRefund = z.object({
  id: z.number(),
  amountCents: z.number(),
  currency: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  reason: z.string(),
  /** 'admin' or 'payment provider' */
  actor: z.string(),
  actorName: z.string().nullable(),
  itemId: z.number().nullable(),
  providerRefundId: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminRefund = z.infer<typeof adminRefund>;

export const FLAG_LABELS = {
  amount_mismatch: 'Paid amount differs',
  paid_after_cancel: 'Paid after it was cancelled',
  address_unreadable: 'Check the address',
  refunded_in_provider: 'Refunded in Stripe: do not ship',
  refund_failed: 'A refund failed',
  disputed: 'Payment disputed',
  model_corrected: 'Model corrected: check the print',
} as const;
export type FlagKind = keyof typeof FLAG_LABELS;

export const adminFlag = z.object({
  id: z.number(),
  kind: z.enum(Object.keys(FLAG_LABELS) as [FlagKind, ...FlagKind[]]),
  details: z.string(),
  /** An open blocking flag stops the order moving on (cancelling still works). */
  blocking: z.boolean(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionNote: z.string().nullable(),
});
export type AdminFlag = z.infer<typeof adminFlag>;

export const TIMELINE_KINDS = [
  'status',
  'note',
  'refund',
  'flag',
  'mail',
  'payment',
  'reprint',
  'printed',
] as const;

export const adminTimelineEntry = z.object({
  /** Unique within the timeline: `e12` (order event), `i3` (item event), `p:evt_...` (payment event). */
  key: z.string(),
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** 'customer', 'admin', 'webhook', 'simulator', 'reconcile', 'payment provider', 'system' */
  actor: z.string(),
  /** The staff member or customer's username, when a person acted. */
  actorName: z.string().nullable(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  text: z.string(),
  visibleToCustomer: z.boolean(),
  amountCents: z.number().nullable(),
});
export type AdminTimelineEntry = z.infer<typeof adminTimelineEntry>;

export const adminAddress = z.object({
  name: z.string().nullable(),
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
});

export const adminOrderDetail = z.object({
  id: z.number(),
  status: orderStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  currency: z.string(),
  /** The items; total = subtotal + shipping + tax. */
  subtotalCents: z.number(),
  /** The chosen method's price (its name is `shipping.method`). */
  shippingCents: z.number(),
  /** Tax as the payment provider computed it (0 without automatic tax or in test mode), and its lines. */
  taxCents: z.number(),
  taxLines: z.array(taxLine),
  totalCents: z.number(),
  amountPaidCents: z.number().nullable(),
  amountRefundedCents: z.number(),
  /** Paid less refunds made or under way: what a refund may still send back. */
  refundableCents: z.number(),
  testMode: z.boolean(),
  /** The country chosen in the cart (null for orders from before shipping methods). */
  shipTo: z.enum(SHIPPING_COUNTRIES).nullable(),
  shipBy: z.string().nullable(),
  /** The arrival window: ship-by + the method's transit days (YYYY-MM-DD), null when not known. */
  arrivesFrom: z.string().nullable(),
  arrivesBy: z.string().nullable(),
  late: z.boolean(),
  customer: z.object({
    userId: z.number(),
    username: z.string(),
    /** The email the order was placed with. */
    email: z.string(),
    name: z.string().nullable(),
  }),
  shipping: adminAddress.extend({ method: z.string().nullable() }),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  paidAt: z.string().nullable(),
  queuedAt: z.string().nullable(),
  printingAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  items: z.array(adminOrderItem),
  payment: z.object({
    provider: z.string().nullable(),
    sessionId: z.string().nullable(),
    paymentIntentId: z.string().nullable(),
    chargeId: z.string().nullable(),
  }),
  refunds: z.array(adminRefund),
  flags: z.array(adminFlag),
  timeline: z.array(adminTimelineEntry),
  /** The statuses staff may move the order to now (empty while a blocking flag is open, but cancel). */
  allowedStatuses: z.array(orderStatus),
  /** The next production step (paid -> queued -> printing -> shipped), if staff may take it now. */
  nextStatus: orderStatus.nullable(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetail>;

/** POST /api/admin/orders/:id/status */
export const adminStatusRequest = z
  .object({
    status: orderStatus,
    trackingNumber: z
      .string()
      .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
      .pipe(z.string().regex(TRACKING_NUMBER, TRACKING_MSG))
      .optional(),
    carrier: z.enum(CARRIER_CODES, 'Choose the carrier.').optional(),
    /** Mail the customer about the change (default yes). */
    notify: z.boolean().default(true),
    note: z.string().trim().max(2000, 'The note can be at most 2000 characters.').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.status !== 'shipped') return;
    if (!v.carrier) ctx.addIssue({ code: 'custom', path: ['carrier'], message: 'Choose the carrier.' });
    if (!v.trackingNumber)
      ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'Enter the tracking number.' });
  });
export type AdminStatusRequest = z.input<typeof adminStatusRequest>;

/** POST /api/admin/orders/:id/notes */
export const adminNoteRequest = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write the note first.')
    .max(5000, 'The note can be at most 5000 characters.'),
  visibleToCustomer: z.boolean(),
});
export type AdminNoteRequest = z.input<typeof adminNoteRequest>;

/** POST /api/admin/orders/:id/refund: without an amount, all that is left. A partial refund needs a reason. */
export const adminRefundRequest = z.object({
  amountCents: z
    .number()
    .int('The amount is in whole cents.')
    .positive('The amount must be above zero.')
    .optional(),
  reason: z.string().trim().max(500, 'The reason can be at most 500 characters.').default(''),
  itemId: z.number().int().positive().optional(),
  notify: z.boolean().default(true),
});
export type AdminRefundRequest = z.input<typeof adminRefundRequest>;

/** POST /api/admin/orders/:id/flags/:flagId/resolve */
export const adminResolveFlagRequest = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'Say how the flag was resolved.')
    .max(2000, 'The note can be at most 2000 characters.'),
});

/** POST /api/admin/orders/:id/items/:itemId/reprint */
export const adminReprintRequest = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Say why the item is printed again.')
    .max(1000, 'The reason can be at most 1000 characters.'),
});

/** The answer of every order-changing admin call: the order as it is now. */
export const adminOrderChanged = z.object({ order: adminOrderDetail });

export const productionItem = z.object({
  orderId: z.number(),
  itemId: z.number(),
  orderStatus: orderStatus,
  fileName: z.string(),
  modelId: z.string().nullable(),
  previewUrl: z.string().nullable(),
  quantity: z.number(),
  dimensions: xyz.nullable(),
  notes: z.string(),
  reprints: z.number(),
  /** Why it was last sent back, while a reprint is waiting. */
  reprintReason: z.string().nullable(),
  shipBy: z.string().nullable(),
  late: z.boolean(),
  /** Per piece. */
  grams: z.number().nullable(),
  printHours: z.number().nullable(),
});
export type ProductionItem = z.infer<typeof productionItem>;

export const productionGroup = z.object({
  /** `${color}|${strength}` */
  key: z.string(),
  color: z.string(),
  colorName: z.string(),
  strength: z.number(),
  strengthLabel: z.string(),
  pieces: z.number(),
  /** For all pieces of the group. */
  hours: z.number(),
  grams: z.number(),
  items: z.array(productionItem),
  /** The group's orders still queued: "Start this batch" moves them to printing. */
  queuedOrderIds: z.array(z.number()),
});
export type ProductionGroup = z.infer<typeof productionGroup>;

/** GET /api/admin/production */
export const productionSheet = z.object({ groups: z.array(productionGroup) });
export type ProductionSheet = z.infer<typeof productionSheet>;

/** POST /api/admin/production/start: moves these queued orders to printing (one batch). */
export const productionStartRequest = z.object({
  orderIds: z.array(z.number().int().positive()).min(1, 'Choose the orders to start.').max(500),
});
export const productionStartPayload = z.object({
  started: z.array(z.number()),
  /** Orders that could not be moved, with why (already moved by someone else, a blocking flag...). */
  refused: z.array(z.object({ orderId: z.number(), error: z.string() })),
});
