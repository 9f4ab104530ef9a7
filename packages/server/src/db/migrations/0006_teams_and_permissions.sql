CREATE TABLE "permission_definitions" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"id" text NOT NULL,
	"scope" text NOT NULL,
	"description" text,
	"contained_permission_ids" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permission_definitions_project_id_branch_id_id_pk" PRIMARY KEY("project_id","branch_id","id")
);
--> statement-breakpoint
CREATE TABLE "project_permission_grants" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"user_id" uuid NOT NULL,
	"permission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_permission_grants_user_id_permission_id_pk" PRIMARY KEY("user_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "team_permission_grants" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"permission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_permission_grants_team_id_user_id_permission_id_pk" PRIMARY KEY("team_id","user_id","permission_id")
);
--> statement-breakpoint
ALTER TABLE "permission_definitions" ADD CONSTRAINT "permission_definitions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_permission_grants" ADD CONSTRAINT "project_permission_grants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_permission_grants" ADD CONSTRAINT "project_permission_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_permission_grants" ADD CONSTRAINT "team_permission_grants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_permission_grants" ADD CONSTRAINT "team_permission_grants_member_fk" FOREIGN KEY ("team_id","user_id") REFERENCES "public"."team_members"("team_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_permission_grants_project_permission_idx" ON "project_permission_grants" USING btree ("project_id","branch_id","permission_id");--> statement-breakpoint
CREATE INDEX "team_permission_grants_project_permission_idx" ON "team_permission_grants" USING btree ("project_id","branch_id","permission_id");--> statement-breakpoint
CREATE INDEX "verification_codes_team_idx" ON "verification_codes" USING btree ("project_id",("data"->>'team_id')) WHERE "verification_codes"."purpose" = 'team_invitation';--> statement-breakpoint
INSERT INTO "permission_definitions" ("project_id", "branch_id", "id", "scope", "description", "contained_permission_ids")
SELECT "id", 'main', 'team_admin', 'team', 'Runs the team: everything the system team permissions allow.',
  ARRAY['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team']
FROM "projects"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "permission_definitions" ("project_id", "branch_id", "id", "scope", "description", "contained_permission_ids")
SELECT "id", 'main', 'team_member', 'team', 'Takes part in the team: sees its members and invites others.',
  ARRAY['$invite_members', '$read_members']
FROM "projects"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Teams made before permissions existed had one member, the user who created them (a personal team):
-- each gets the project's team-creator defaults, as a team created now would.
INSERT INTO "team_permission_grants" ("project_id", "branch_id", "team_id", "user_id", "permission_id")
SELECT "team_members"."project_id", "team_members"."branch_id", "team_members"."team_id", "team_members"."user_id", "defaults"."value"->>'id'
FROM "team_members"
JOIN "projects" ON "projects"."id" = "team_members"."project_id"
CROSS JOIN LATERAL jsonb_array_elements("projects"."config"->'team_creator_default_permissions') AS "defaults"("value")
-- Only ids that name a team permission of that project and branch (a system one, or one defined above).
WHERE "defaults"."value"->>'id' IN ('$update_team', '$delete_team', '$read_members', '$remove_members', '$invite_members', '$manage_api_keys')
  OR EXISTS (
    SELECT 1 FROM "permission_definitions"
    WHERE "permission_definitions"."project_id" = "team_members"."project_id"
      AND "permission_definitions"."branch_id" = "team_members"."branch_id"
      AND "permission_definitions"."scope" = 'team'
      AND "permission_definitions"."id" = "defaults"."value"->>'id'
  )
ON CONFLICT DO NOTHING;
