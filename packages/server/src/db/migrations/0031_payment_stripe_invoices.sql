CREATE TABLE "payment_stripe_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"stripe_account_id" text NOT NULL,
	"stripe_invoice_id" text NOT NULL,
	"stripe_subscription_id" text NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text,
	"amount_total" integer NOT NULL,
	"currency" text,
	"hosted_invoice_url" text,
	"created_at" timestamp with time zone NOT NULL,
	"event_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_stripe_invoices" ADD CONSTRAINT "payment_stripe_invoices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_stripe_invoices_invoice_idx" ON "payment_stripe_invoices" USING btree ("project_id","branch_id","stripe_invoice_id");--> statement-breakpoint
CREATE INDEX "payment_stripe_invoices_customer_idx" ON "payment_stripe_invoices" USING btree ("project_id","branch_id","customer_type","customer_id","created_at","id");