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
  /** The hosted checkout of an order still waiting for payment, while it can be paid. */
  payment_url: z.string().nullable(),
  items: z.array(orderItemPayload),
});

export type OrderItemPayload = z.infer<typeof orderItemPayload>;
export type OrderPayload = z.infer<typeof orderPayload>;
