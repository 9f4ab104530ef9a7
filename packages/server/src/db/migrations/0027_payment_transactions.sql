CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"purchase_id" uuid NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"entries" jsonb NOT NULL,
	"amount_usd_cents" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_purchases" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_purchase_idx" ON "payment_refunds" USING btree ("project_id","branch_id","purchase_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_recent_idx" ON "payment_refunds" USING btree ("project_id","branch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_refunds_type_recent_idx" ON "payment_refunds" USING btree ("project_id","branch_id","customer_type","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_item_changes_recent_idx" ON "payment_item_changes" USING btree ("project_id","branch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_item_changes_type_recent_idx" ON "payment_item_changes" USING btree ("project_id","branch_id","customer_type","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_purchases_recent_idx" ON "payment_purchases" USING btree ("project_id","branch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_purchases_type_recent_idx" ON "payment_purchases" USING btree ("project_id","branch_id","customer_type","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_purchases_cancelled_idx" ON "payment_purchases" USING btree ("project_id","branch_id","cancelled_at","id") WHERE "payment_purchases"."cancelled_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_purchases_type_cancelled_idx" ON "payment_purchases" USING btree ("project_id","branch_id","customer_type","cancelled_at","id") WHERE "payment_purchases"."cancelled_at" IS NOT NULL;