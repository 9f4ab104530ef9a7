CREATE TABLE "payment_purchase_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"code_hash" text NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"product_id" text,
	"product" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"product_id" text,
	"product" jsonb NOT NULL,
	"price_id" text,
	"quantity" integer NOT NULL,
	"kind" text NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"ended_at" timestamp with time zone,
	"test_mode" boolean NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_test_clocks" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"offset_ms" bigint NOT NULL,
	CONSTRAINT "payment_test_clocks_project_id_branch_id_pk" PRIMARY KEY("project_id","branch_id")
);
--> statement-breakpoint
ALTER TABLE "payment_purchase_codes" ADD CONSTRAINT "payment_purchase_codes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_purchases" ADD CONSTRAINT "payment_purchases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_test_clocks" ADD CONSTRAINT "payment_test_clocks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_purchase_codes_hash_idx" ON "payment_purchase_codes" USING btree ("project_id","branch_id","code_hash");--> statement-breakpoint
CREATE INDEX "payment_purchase_codes_expiry_idx" ON "payment_purchase_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "payment_purchases_customer_idx" ON "payment_purchases" USING btree ("project_id","branch_id","customer_type","customer_id","created_at");