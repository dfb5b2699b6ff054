CREATE TABLE "saved_carts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "view_key" text;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "view_triangles" integer;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "saved_carts" ADD CONSTRAINT "saved_carts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;