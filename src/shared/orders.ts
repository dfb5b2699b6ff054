import { z } from 'zod';
import { cartItems } from './cart.ts';

// The order payload of docs/api.md as GET /api/get_orders.php answers it.

export const orderItemPayload = z.object({
  item_id: z.number(),
  file_name: z.string(),
  unique_file_path: z.string().nullable(),
  /** The line's preview, in the line's color (`?color=red`). */
  preview_image_url: z.string().nullable(),
  color: z.string(),
  strength: z.number(),
  /** Dollars: one piece. */
  cost: z.number(),
  /** Dollars: what the line cost in all (unit x quantity less any quantity discount). */
  line_total: z.number(),
  quantity: z.number(),
  notes: z.string().nullable(),
  /** Millimetres: the model's size as ordered (a model rescaled from inches is its own model); null without one. */
  dimensions: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
  /** How the stored file is scaled to that size: what the 3D viewer draws its view mesh at (1 if unscaled). */
  scale: z.number(),
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
  /** YYYY-MM-DD: the arrival window the shipping method gives from ship_by. */
  arrives_from: z.string().nullable(),
  arrives_by: z.string().nullable(),
  /** Dollars: the items, the shipping paid and the tax (total_amount is their sum). */
  subtotal: z.number(),
  shipping_amount: z.number(),
  /** The shipping method's name ('US Standard'); null on orders from before shipping methods. */
  shipping_method: z.string().nullable(),
  tax_amount: z.number(),
  /** Each tax the payment provider charged, in its words, in dollars. */
  tax_lines: z.array(z.object({ label: z.string(), amount: z.number() })),
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

/**
 * POST /api/orders/:id/order-again: the order's lines as cart lines at today's price (merged into the cart by
 * the browser), and the lines that cannot be ordered again (their model is no longer stored) with why.
 */
export const orderAgainPayload = z.object({
  items: cartItems,
  unavailable: z.array(z.object({ fileName: z.string(), reason: z.string() })),
});
export type OrderAgainPayload = z.infer<typeof orderAgainPayload>;

/** POST /api/orders/:id/cancel answers the order's status. */
export const cancelOrderPayload = z.object({ id: z.number(), status: z.string() });

export type OrderItemPayload = z.infer<typeof orderItemPayload>;
export type OrderPayload = z.infer<typeof orderPayload>;
