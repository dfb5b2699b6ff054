import { z } from 'zod';

// The order payload of docs/api.md as GET /api/get_orders.php answers it.

export const orderItemPayload = z.object({
  item_id: z.number(),
  file_name: z.string(),
  unique_file_path: z.string().nullable(),
  preview_image_url: z.string().nullable(),
  color: z.string(),
  strength: z.number(),
  /** Dollars: one piece. */
  cost: z.number(),
  /** Dollars: what the line cost in all (unit x quantity less any quantity discount). */
  line_total: z.number(),
  quantity: z.number(),
  notes: z.string().nullable(),
});

export const orderPayload = z.object({
  id: z.number(),
  status: z.string(),
  created_at: z.string(),
  total_amount: z.number(),
  currency: z.string(),
  tracking_number: z.string().nullable(),
  shipping_name: z.string().nullable(),
  shipping_line1: z.string().nullable(),
  shipping_line2: z.string().nullable(),
  shipping_city: z.string().nullable(),
  shipping_state: z.string().nullable(),
  shipping_postal_code: z.string().nullable(),
  shipping_country: z.string().nullable(),
  /** YYYY-MM-DD: when a paid order should leave the shop. */
  ship_by: z.string().nullable(),
  /** The hosted checkout of an order still waiting for payment, while it can be paid (and not flagged). */
  payment_url: z.string().nullable(),
  /** Paid through the shop's test simulator: "Test order: no money was taken". */
  test_mode: z.boolean(),
  /** The carrier's code (src/shared/carriers.ts) and its tracking page, once shipped. */
  carrier: z.string().nullable(),
  tracking_url: z.string().nullable(),
  /** Dollars sent back in all, and each refund. */
  amount_refunded: z.number(),
  refunds: z.array(z.object({ amount: z.number(), created_at: z.string() })),
  /** What staff wrote for the customer, oldest first. */
  notes: z.array(z.object({ text: z.string(), created_at: z.string() })),
  /** The customer may cancel it themselves (a pending order: POST /api/orders/:id/cancel). */
  can_cancel: z.boolean(),
  items: z.array(orderItemPayload),
});

/** POST /api/orders/:id/cancel answers the order's status. */
export const cancelOrderPayload = z.object({ id: z.number(), status: z.string() });

export type OrderItemPayload = z.infer<typeof orderItemPayload>;
export type OrderPayload = z.infer<typeof orderPayload>;
