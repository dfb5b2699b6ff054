CREATE TABLE "install_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "upload_ip_hash" text;--> statement-breakpoint
CREATE INDEX "models_upload_ip_idx" ON "models" USING btree ("upload_ip_hash","created_at");