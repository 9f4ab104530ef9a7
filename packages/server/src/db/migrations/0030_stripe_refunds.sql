DROP INDEX "payment_refunds_purchase_idx";--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "origin" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "stripe_refund_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_api_purchase_idx" ON "payment_refunds" USING btree ("project_id","branch_id","purchase_id") WHERE "payment_refunds"."origin" = 'api';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_stripe_refund_idx" ON "payment_refunds" USING btree ("project_id","branch_id","stripe_refund_id") WHERE "payment_refunds"."stripe_refund_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_refunds_purchase_idx" ON "payment_refunds" USING btree ("project_id","branch_id","purchase_id");