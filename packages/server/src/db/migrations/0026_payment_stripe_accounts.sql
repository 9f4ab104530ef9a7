CREATE TABLE "payment_stripe_accounts" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"kind" text NOT NULL,
	"stripe_account_id" text NOT NULL,
	"charges_enabled" boolean NOT NULL,
	"details_submitted" boolean NOT NULL,
	"payouts_enabled" boolean NOT NULL,
	"key_id" text,
	"wrapped_data_key" text,
	"sealed_secrets" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_stripe_accounts_project_id_branch_id_pk" PRIMARY KEY("project_id","branch_id")
);
--> statement-breakpoint
CREATE TABLE "payment_stripe_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_stripe_accounts" ADD CONSTRAINT "payment_stripe_accounts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_stripe_events" ADD CONSTRAINT "payment_stripe_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_stripe_accounts_account_idx" ON "payment_stripe_accounts" USING btree ("stripe_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_stripe_events_event_idx" ON "payment_stripe_events" USING btree ("project_id","branch_id","event_id");--> statement-breakpoint
CREATE INDEX "payment_stripe_events_received_at_idx" ON "payment_stripe_events" USING btree ("received_at");