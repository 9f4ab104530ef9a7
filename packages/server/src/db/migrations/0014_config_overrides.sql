CREATE TABLE "branch_config_overrides" (
	"project_id" text NOT NULL,
	"branch_id" text NOT NULL,
	"branch_override" json DEFAULT '{}'::json NOT NULL,
	"environment_override" json DEFAULT '{}'::json NOT NULL,
	"source" json DEFAULT '{"type":"unlinked"}'::json NOT NULL,
	CONSTRAINT "branch_config_overrides_project_id_branch_id_pk" PRIMARY KEY("project_id","branch_id")
);
--> statement-breakpoint
CREATE TABLE "project_config_overrides" (
	"project_id" text PRIMARY KEY NOT NULL,
	"override" json DEFAULT '{}'::json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "config" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "branch_config_overrides" ADD CONSTRAINT "branch_config_overrides_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_config_overrides" ADD CONSTRAINT "project_config_overrides_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;