CREATE TABLE "data_vault_values" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"store_id" text NOT NULL,
	"hashed_key" text NOT NULL,
	"key_id" text NOT NULL,
	"wrapped_data_key" text NOT NULL,
	"sealed_value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_vault_values_project_id_branch_id_store_id_hashed_key_pk" PRIMARY KEY("project_id","branch_id","store_id","hashed_key")
);
--> statement-breakpoint
ALTER TABLE "data_vault_values" ADD CONSTRAINT "data_vault_values_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_vault_values_key_id_idx" ON "data_vault_values" USING btree ("key_id");