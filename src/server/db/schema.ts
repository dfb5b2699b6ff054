import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { PaidShipping, ShippingOffer, TaxLine } from '../../shared/shipping.ts';

// One schema for PGlite and PostgreSQL. Money is integer cents; times are timestamptz.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The account's Stripe Customer, so Stripe Checkout can prefill the name, address and card. */
    stripeCustomerId: text('stripe_customer_id'),
    /** Staff disabled the account: it cannot log in, its sessions ended (null: enabled). */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Email verification, password reset and sign-in link tokens: only the SHA-256 hash is kept. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset', 'sign-in'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.purpose)],
);

/** An uploaded, analysed model. A visitor's models belong to their browser until they log in. */
export const models = pgTable(
  'models',
  {
    id: text('id').primaryKey(),
    ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    ownerVisitorHash: text('owner_visitor_hash'),
    contentHash: text('content_hash').notNull(),
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    previewKey: text('preview_key'),
    /** The 3D viewer's GLB (view-mesh.ts), shared like the file; null until made (older uploads: on first view). */
    viewKey: text('view_key'),
    /** Triangles in the view mesh: fewer than `triangles` when it was simplified for display. */
    viewTriangles: integer('view_triangles'),
    scale: doublePrecision('scale').notNull().default(1),
    triangles: integer('triangles').notNull(),
    volumeMm3: doublePrecision('volume_mm3').notNull(),
    areaMm2: doublePrecision('area_mm2').notNull(),
    dimX: doublePrecision('dim_x').notNull(),
    dimY: doublePrecision('dim_y').notNull(),
    dimZ: doublePrecision('dim_z').notNull(),
    watertight: boolean('watertight').notNull(),
    /** Closed shells the analysis found inside out and turned outward (counted in full, flagged when ordered). */
    correctedShells: integer('corrected_shells').notNull().default(0),
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
    /**
     * HMAC-SHA-256 (key: install_secrets 'upload-ip') of the uploading client's address bucket (IPv6 /64),
     * for the per-IP daily quota; never the address itself. Cleared once the day is over.
     */
    uploadIpHash: text('upload_ip_hash'),
    /** The owner removed it from their list (GET /api/models); orders and carts may still name it. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('models_owner_user_idx').on(t.ownerUserId),
    index('models_owner_visitor_idx').on(t.ownerVisitorHash),
    index('models_content_hash_idx').on(t.contentHash),
    index('models_created_idx').on(t.createdAt),
    index('models_upload_ip_idx').on(t.uploadIpHash, t.createdAt),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** One of ORDER_STATUSES (src/shared/catalog.ts); moved only by src/server/orders/state-machine.ts. */
    status: text('status').notNull().default('pending'),
    totalCents: integer('total_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** The customer's email when they ordered (the account's may change later). */
    customerEmail: text('customer_email'),
    trackingNumber: text('tracking_number'),
    /** Who carries the parcel (src/shared/carriers.ts), set with the tracking number at shipping. */
    carrier: text('carrier'),
    shippingName: text('shipping_name'),
    shippingLine1: text('shipping_line1'),
    shippingLine2: text('shipping_line2'),
    shippingCity: text('shipping_city'),
    shippingState: text('shipping_state'),
    shippingPostalCode: text('shipping_postal_code'),
    shippingCountry: text('shipping_country'),
    /** 'stripe' or 'simulator': a simulator order is a test order, no money was taken. */
    paymentProvider: text('payment_provider'),
    paymentSessionId: text('payment_session_id'),
    paymentIntentId: text('payment_intent_id'),
    /** The provider's charge (Stripe `ch_...`), for refunds and disputes. */
    paymentChargeId: text('payment_charge_id'),
    amountPaidCents: integer('amount_paid_cents'),
    /** A fingerprint of the priced cart, so a double click reuses one open session. */
    cartHash: text('cart_hash'),
    /** The hosted checkout's address while the order waits for payment (My Orders: 'Complete payment'). */
    paymentUrl: text('payment_url'),
    paymentExpiresAt: timestamp('payment_expires_at', { withTimezone: true }),
    /** When the reconcile job last asked the provider about this pending order. */
    paymentCheckedAt: timestamp('payment_checked_at', { withTimezone: true }),
    /** How often it asked, and when it asks next (never asked: null, asked first). */
    paymentChecks: integer('payment_checks').notNull().default(0),
    paymentNextCheckAt: timestamp('payment_next_check_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    printingAt: timestamp('printing_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /** The sum of the order's succeeded refunds, kept in the same transaction as they change. */
    amountRefundedCents: integer('amount_refunded_cents').notNull().default(0),
    /** The items; total = subtotal + shipping + tax (a check below). */
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    /** The chosen method's price (the first offered until the customer chose on the hosted page). */
    shippingCents: integer('shipping_cents').notNull().default(0),
    /** The chosen method's name (shipping_rate holds the whole snapshot). */
    shippingMethod: text('shipping_method'),
    /** The country the customer chose to ship to in the cart: the hosted page takes only its addresses. */
    shipTo: text('ship_to'),
    /** The methods offered for this order at checkout, with this cart's prices and dates (src/shared/shipping.ts). */
    shippingOffers: jsonb('shipping_offers').$type<ShippingOffer[]>(),
    /** The method paid for: id, name, price, transit days, as they were. */
    shippingRate: jsonb('shipping_rate').$type<PaidShipping>(),
    /** Tax as the payment provider computed it (0 without automatic tax), and its lines. */
    taxCents: integer('tax_cents').notNull().default(0),
    taxLines: jsonb('tax_lines').$type<TaxLine[]>(),
    /** The day the order should leave the shop, from the print queue when it was paid. */
    shipBy: date('ship_by', { mode: 'string' }),
    /** The arrival window: ship-by plus the method's transit days (working days). */
    arrivesFrom: date('arrives_from', { mode: 'string' }),
    arrivesBy: date('arrives_by', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('orders_payment_session_idx').on(t.paymentSessionId),
    uniqueIndex('orders_payment_intent_idx').on(t.paymentIntentId),
    index('orders_status_idx').on(t.status, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    check('orders_total_nonnegative', sql`${t.totalCents} >= 0`),
    check(
      'orders_status_known',
      sql`${t.status} in ('pending', 'paid', 'queued', 'printing', 'shipped', 'failed', 'cancelled')`,
    ),
    check(
      'orders_refund_within_paid',
      sql`${t.amountRefundedCents} between 0 and coalesce(${t.amountPaidCents}, 0)`,
    ),
    index('orders_pending_check_idx').on(t.status, t.paymentNextCheckAt),
    check(
      'orders_total_parts',
      sql`${t.totalCents} = ${t.subtotalCents} + ${t.shippingCents} + ${t.taxCents}`,
    ),
    check('orders_tax_nonnegative', sql`${t.taxCents} >= 0 and ${t.shippingCents} >= 0`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    modelId: text('model_id').references(() => models.id),
    fileName: text('file_name').notNull(),
    color: text('color').notNull(),
    strength: smallint('strength').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    lineTotalCents: integer('line_total_cents').notNull(),
    notes: text('notes').notNull().default(''),
    breakdown: jsonb('breakdown').$type<Record<string, number>>(),
    /** What the price assumed one piece takes: plastic and printer time (production planning). */
    grams: doublePrecision('grams'),
    printHours: doublePrecision('print_hours'),
    /** Staff marked the item's pieces printed: it leaves the production sheet (a reprint clears it). */
    printedAt: timestamp('printed_at', { withTimezone: true }),
    /** How many times the item was sent back to the printers (item events say why). */
    reprints: integer('reprints').notNull().default(0),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
    check('order_items_strength_range', sql`${t.strength} between 1 and 5`),
  ],
);

/**
 * The order's timeline: status changes (who, when, from, to), notes (internal or for the customer),
 * refunds, flags, mails sent and payments. `kind` says which, so nothing parses free text.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['status', 'note', 'refund', 'flag', 'mail', 'payment', 'reprint'] })
      .notNull()
      .default('status'),
    actorUserId: integer('actor_user_id').references(() => users.id),
    /** 'customer', 'admin', 'webhook', 'simulator', 'reconcile', 'payment provider', 'system' */
    actor: text('actor').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    note: text('note'),
    /** A note the customer sees on My Orders (and was mailed). */
    visibleToCustomer: boolean('visible_to_customer').notNull().default(false),
    amountCents: integer('amount_cents'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_events_order_idx').on(t.orderId, t.createdAt),
    check(
      'order_events_kind_known',
      sql`${t.kind} in ('status', 'note', 'refund', 'flag', 'mail', 'payment', 'reprint')`,
    ),
  ],
);

/** What happened to one item in production: printed, or sent back for a reprint (with the reason). */
export const orderItemEvents = pgTable(
  'order_item_events',
  {
    id: serial('id').primaryKey(),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['reprint', 'printed'] }).notNull(),
    reason: text('reason'),
    actorUserId: integer('actor_user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_item_events_item_idx').on(t.orderItemId),
    check('order_item_events_kind_known', sql`${t.kind} in ('reprint', 'printed')`),
  ],
);

/** Money sent back: through the shop (staff) or made in the provider's dashboard and reported by it. */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id').references(() => orderItems.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The provider's refund id (`re_...`); null only while the provider has not answered yet. */
    providerRefundId: text('provider_refund_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    reason: text('reason').notNull().default(''),
    actorUserId: integer('actor_user_id').references(() => users.id),
    /** 'admin' or 'payment provider' (made in the provider's dashboard). */
    actor: text('actor').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_provider_refund_idx').on(t.providerRefundId),
    index('refunds_order_idx').on(t.orderId),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status_known', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

export const ORDER_FLAG_KINDS = [
  'amount_mismatch',
  'paid_after_cancel',
  'address_unreadable',
  'refunded_in_provider',
  'refund_failed',
  'disputed',
  'model_corrected',
] as const;
export type OrderFlagKind = (typeof ORDER_FLAG_KINDS)[number];

/** Why staff must look at an order; an open `blocking` flag stops it moving on until resolved. */
export const orderFlags = pgTable(
  'order_flags',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_FLAG_KINDS }).notNull(),
    details: text('details').notNull(),
    blocking: boolean('blocking').notNull().default(false),
    /** What raised it (a provider event or dispute id), so one cause raises one flag however often it is told. */
    sourceKey: text('source_key'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    index('order_flags_order_idx').on(t.orderId),
    index('order_flags_open_idx').on(t.resolvedAt),
    uniqueIndex('order_flags_source_idx').on(t.orderId, t.kind, t.sourceKey),
    check(
      'order_flags_kind_known',
      sql`${t.kind} in ('amount_mismatch', 'paid_after_cancel', 'address_unreadable', 'refunded_in_provider', 'refund_failed', 'disputed', 'model_corrected')`,
    ),
  ],
);

/** Payment provider events, stored by their id so each is applied at most once. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  orderId: integer('order_id').references(() => orders.id),
  outcome: text('outcome'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The payment simulator's checkout sessions (the embedded default's hosted checkout), kept in the database
 * so that any instance serves them. Shaped like the parts of a Stripe Checkout Session the shop reads.
 */
export const simulatorSessions = pgTable(
  'simulator_sessions',
  {
    id: text('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['open', 'complete', 'expired'] })
      .notNull()
      .default('open'),
    paymentStatus: text('payment_status', { enum: ['paid', 'unpaid'] })
      .notNull()
      .default('unpaid'),
    amountTotalCents: integer('amount_total_cents').notNull(),
    currency: text('currency').notNull(),
    lines: jsonb('lines')
      .$type<{ name: string; description: string; imageUrl: string | null; amountCents: number }[]>()
      .notNull(),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    shipping: jsonb('shipping').$type<Record<string, string>>(),
    /** Only addresses in this country (the cart's 'Ship to'). */
    shipTo: text('ship_to'),
    /** The shipping methods offered, first preselected; the one chosen at Pay, and the parts of the total. */
    shippingOptions: jsonb('shipping_options')
      .$type<{ id: string; name: string; amountCents: number; minDays: number; maxDays: number }[]>()
      .notNull()
      .default([]),
    shippingOptionId: text('shipping_option_id'),
    amountSubtotalCents: integer('amount_subtotal_cents'),
    amountShippingCents: integer('amount_shipping_cents'),
    paymentIntentId: text('payment_intent_id'),
    declines: integer('declines').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // One order, one session: making it again (a retried checkout) finds the first.
  (t) => [uniqueIndex('simulator_sessions_order_idx').on(t.orderId)],
);

/**
 * A logged-in customer's cart, kept so that it follows the account to another device; the browser's
 * `printCart` stays the working copy. `items` is checked against src/shared/cart.ts on every write.
 */
export const savedCarts = pgTable('saved_carts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  items: jsonb('items').$type<unknown[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** The admin who marked it handled. */
    handledBy: integer('handled_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_handled_idx').on(t.handledAt, t.createdAt)],
);

/**
 * Every change to the shop's settings (pricing, shipping, production...): who, when, which key, the value
 * before and after. Written in the same transaction as the change.
 */
export const settingsHistory = pgTable(
  'settings_history',
  {
    id: serial('id').primaryKey(),
    /** The settings group ('pricing', 'shipping', 'production', 'shop') and the key within it. */
    section: text('section').notNull(),
    key: text('key').notNull(),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('settings_history_changed_idx').on(t.changedAt)],
);

/** What staff did to an account (verified, verification resent, admin granted or revoked, disabled, enabled). */
export const accountEvents = pgTable(
  'account_events',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('account_events_user_idx').on(t.userId, t.createdAt)],
);

export type OutboxMail = { to: string; subject: string; text: string; html: string; replyTo?: string };

/** Durable outbox: mail is written here in the same transaction as its cause and sent by a worker. */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull().default('mail'),
    payload: jsonb('payload').$type<OutboxMail>().notNull(),
    status: text('status', { enum: ['pending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Admin-editable shop settings (one row, id = 1); values missing here fall back to defaults in code. */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey(),
  pricing: jsonb('pricing').$type<Record<string, unknown>>().notNull().default({}),
  /** Shipping methods per country (src/shared/shipping.ts); empty: the defaults. */
  shipping: jsonb('shipping').$type<Record<string, unknown>>().notNull().default({}),
  /** Production capacity: printers, hours, working days, cut-off, holidays (src/server/shipping). */
  production: jsonb('production').$type<Record<string, unknown>>().notNull().default({}),
  /** The shop's own settings over the environment's defaults: build volume, upload retention. */
  shop: jsonb('shop').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id),
});

/**
 * Random keys made once per installation (on first use) and shared by every instance on this database,
 * e.g. the key of the hashed client addresses. Never shown, never editable.
 */
export const installSecrets = pgTable('install_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type Model = typeof models.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type OrderItem = typeof orderItems.$inferSelect;
export type OrderEvent = typeof orderEvents.$inferSelect;
export type OrderFlag = typeof orderFlags.$inferSelect;
export type Refund = typeof refunds.$inferSelect;
export type SimulatorSession = typeof simulatorSessions.$inferSelect;
