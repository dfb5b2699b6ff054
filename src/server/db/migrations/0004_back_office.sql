CREATE TABLE "order_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"details" text NOT NULL,
	"blocking" boolean DEFAULT false NOT NULL,
	"source_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"resolution_note" text,
	CONSTRAINT "order_flags_kind_known" CHECK ("order_flags"."kind" in ('amount_mismatch', 'paid_after_cancel', 'address_unreadable', 'refunded_in_provider', 'refund_failed', 'disputed', 'model_corrected'))
);
--> statement-breakpoint
CREATE TABLE "order_item_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_item_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_item_events_kind_known" CHECK ("order_item_events"."kind" in ('reprint', 'printed'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_item_id" integer,
	"provider" text NOT NULL,
	"provider_refund_id" text,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"actor_user_id" integer,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
DROP INDEX "order_events_order_idx";--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_pending_check_idx";--> statement-breakpoint
ALTER TABLE "order_events" ALTER COLUMN "to_status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "corrected_shells" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "kind" text DEFAULT 'status' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "visible_to_customer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "printed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "reprints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_email" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_charge_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "printing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "order_flags" ADD CONSTRAINT "order_flags_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_flags" ADD CONSTRAINT "order_flags_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_item_events" ADD CONSTRAINT "order_item_events_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_item_events" ADD CONSTRAINT "order_item_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_item_events" ADD CONSTRAINT "order_item_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_flags_order_idx" ON "order_flags" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_flags_open_idx" ON "order_flags" USING btree ("resolved_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_flags_source_idx" ON "order_flags" USING btree ("order_id","kind","source_key");--> statement-breakpoint
CREATE INDEX "order_item_events_item_idx" ON "order_item_events" USING btree ("order_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_refund_idx" ON "refunds" USING btree ("provider_refund_id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_intent_idx" ON "orders" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_sessions_order_idx" ON "simulator_sessions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "orders_pending_check_idx" ON "orders" USING btree ("status","payment_next_check_at");--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_kind_known" CHECK ("order_events"."kind" in ('status', 'note', 'refund', 'flag', 'mail', 'payment', 'reprint'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('pending', 'paid', 'queued', 'printing', 'shipped', 'failed', 'cancelled'));
--> statement-breakpoint
-- The customer's email as it was when they ordered.
UPDATE "orders" SET "customer_email" = "users"."email" FROM "users" WHERE "users"."id" = "orders"."user_id";--> statement-breakpoint
-- The single overwritable flag becomes a flag row.
INSERT INTO "order_flags" ("order_id", "kind", "details", "created_at")
  SELECT "id", CASE WHEN "flag" LIKE 'Paid after%' THEN 'paid_after_cancel' ELSE 'amount_mismatch' END, "flag", "updated_at"
  FROM "orders" WHERE "flag" IS NOT NULL;--> statement-breakpoint
-- Refunds recorded before they were itemised: one row each, so amount_refunded_cents stays their sum.
INSERT INTO "refunds" ("order_id", "provider", "amount_cents", "currency", "status", "reason", "actor", "created_at", "updated_at")
  SELECT "id", coalesce("payment_provider", 'stripe'), "amount_refunded_cents", "currency", 'succeeded', 'recorded before refunds were itemised', 'payment provider', "updated_at", "updated_at"
  FROM "orders" WHERE "amount_refunded_cents" > 0;--> statement-breakpoint
UPDATE "order_events" SET "kind" = 'flag' WHERE "note" LIKE 'flagged:%' AND "from_status" = "to_status";--> statement-breakpoint
UPDATE "order_events" SET "kind" = 'refund' WHERE "note" LIKE 'refunded %' AND "from_status" = "to_status";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "flag";
