CREATE TABLE "user_team_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid,
	"team_id" uuid,
	"description" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"value_digest" text NOT NULL,
	"last_four" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"manually_revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "user_team_api_keys_one_owner" CHECK (("user_team_api_keys"."type" = 'user' and "user_team_api_keys"."user_id" is not null and "user_team_api_keys"."team_id" is null) or ("user_team_api_keys"."type" = 'team' and "user_team_api_keys"."team_id" is not null and "user_team_api_keys"."user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "user_team_api_keys" ADD CONSTRAINT "user_team_api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_team_api_keys" ADD CONSTRAINT "user_team_api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_team_api_keys" ADD CONSTRAINT "user_team_api_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_team_api_keys_user_idx" ON "user_team_api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "user_team_api_keys_team_idx" ON "user_team_api_keys" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "user_team_api_keys_project_idx" ON "user_team_api_keys" USING btree ("project_id","branch_id");