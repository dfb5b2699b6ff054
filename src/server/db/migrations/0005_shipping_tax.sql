ALTER TABLE "orders" ADD COLUMN "ship_to" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_offers" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_rate" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_lines" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "arrives_from" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "arrives_by" date;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "shipping" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "production" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD COLUMN "ship_to" text;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD COLUMN "shipping_options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD COLUMN "shipping_option_id" text;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD COLUMN "amount_subtotal_cents" integer;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD COLUMN "amount_shipping_cents" integer;--> statement-breakpoint
-- Orders from before shipping methods: free shipping, no tax; their subtotal is their total.
UPDATE "orders" SET "subtotal_cents" = "total_cents" - "shipping_cents" WHERE "subtotal_cents" + "shipping_cents" + "tax_cents" <> "total_cents";--> statement-breakpoint
UPDATE "orders" SET "ship_to" = "shipping_country" WHERE "shipping_country" IN ('US', 'CA');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_parts" CHECK ("orders"."total_cents" = "orders"."subtotal_cents" + "orders"."shipping_cents" + "orders"."tax_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_nonnegative" CHECK ("orders"."tax_cents" >= 0 and "orders"."shipping_cents" >= 0);