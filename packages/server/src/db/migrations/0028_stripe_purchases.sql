CREATE TABLE "payment_stripe_checkouts" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"stripe_id" text NOT NULL,
	"kind" text NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"product_id" text,
	"product" jsonb NOT NULL,
	"price_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"purchase_code_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_stripe_checkouts_project_id_branch_id_stripe_id_pk" PRIMARY KEY("project_id","branch_id","stripe_id")
);
--> statement-breakpoint
CREATE TABLE "payment_stripe_customers" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"stripe_account_id" text NOT NULL,
	"customer_type" text NOT NULL,
	"customer_id" text NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_stripe_customers_project_id_branch_id_stripe_account_id_customer_type_customer_id_pk" PRIMARY KEY("project_id","branch_id","stripe_account_id","customer_type","customer_id")
);
--> statement-breakpoint
ALTER TABLE "payment_purchases" ADD COLUMN "stripe_id" text;--> statement-breakpoint
ALTER TABLE "payment_stripe_checkouts" ADD CONSTRAINT "payment_stripe_checkouts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_stripe_customers" ADD CONSTRAINT "payment_stripe_customers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_purchases_stripe_idx" ON "payment_purchases" USING btree ("project_id","branch_id","stripe_id") WHERE "payment_purchases"."stripe_id" IS NOT NULL;