CREATE TABLE "stored_images" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"id" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_images_project_id_branch_id_id_pk" PRIMARY KEY("project_id","branch_id","id")
);
--> statement-breakpoint
ALTER TABLE "stored_images" ADD CONSTRAINT "stored_images_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;