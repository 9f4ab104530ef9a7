CREATE TABLE "payment_item_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"description" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_item_changes" ADD CONSTRAINT "payment_item_changes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_item_changes_customer_idx" ON "payment_item_changes" USING btree ("project_id","branch_id","customer_type","customer_id","item_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_item_changes_idempotency_idx" ON "payment_item_changes" USING btree ("project_id","branch_id","customer_type","customer_id","item_id","idempotency_key") WHERE "payment_item_changes"."idempotency_key" IS NOT NULL;