ALTER TABLE "payment_refunds" RENAME COLUMN "amount_usd_cents" TO "amount_minor_units";--> statement-breakpoint
ALTER TABLE "payment_purchases" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_stripe_checkouts" ADD COLUMN "currency" text;