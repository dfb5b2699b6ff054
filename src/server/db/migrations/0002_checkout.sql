CREATE TABLE "simulator_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_status" text DEFAULT 'unpaid' NOT NULL,
	"amount_total_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"lines" jsonb NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"shipping" jsonb,
	"payment_intent_id" text,
	"declines" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "grams" double precision;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "print_hours" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_url" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subtotal_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ship_by" date;--> statement-breakpoint
ALTER TABLE "simulator_sessions" ADD CONSTRAINT "simulator_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_pending_check_idx" ON "orders" USING btree ("status","payment_checked_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_within_paid" CHECK ("orders"."amount_refunded_cents" between 0 and coalesce("orders"."amount_paid_cents", 0));--> statement-breakpoint
-- Orders placed before shipping existed: the whole total was the items.
UPDATE "orders" SET "subtotal_cents" = "total_cents";
