CREATE TABLE "project_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"manually_revoked_at" timestamp with time zone,
	"publishable_client_key_hash" text,
	"publishable_client_key_last_four" text,
	"secret_server_key_hash" text,
	"secret_server_key_last_four" text,
	"super_secret_admin_key_hash" text,
	"super_secret_admin_key_last_four" text
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_production_mode" boolean DEFAULT false NOT NULL,
	"owner_team_id" uuid,
	"logo_url" text,
	"logo_full_url" text,
	"logo_dark_mode_url" text,
	"logo_full_dark_mode_url" text,
	"config" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"used_for_auth" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"display_name" text,
	"profile_image_url" text,
	"client_metadata" jsonb,
	"client_read_only_metadata" jsonb,
	"server_metadata" jsonb,
	"signed_up_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_anonymous" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"totp_secret_base64" text,
	"otp_auth_enabled" boolean DEFAULT false NOT NULL,
	"passkey_auth_enabled" boolean DEFAULT false NOT NULL,
	"selected_team_id" uuid,
	"restricted_by_admin" boolean DEFAULT false NOT NULL,
	"restricted_by_admin_reason" text,
	"restricted_by_admin_private_details" text,
	"country_code" text
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"display_name" text,
	"profile_image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"display_name" text NOT NULL,
	"profile_image_url" text,
	"client_metadata" jsonb,
	"client_read_only_metadata" jsonb,
	"server_metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"user_id" uuid NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"is_impersonation" boolean DEFAULT false NOT NULL,
	"last_used_ip" text
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"audience_kind" text NOT NULL,
	"slot" integer NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"encrypted_private_jwk" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_api_keys" ADD CONSTRAINT "project_api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_channels" ADD CONSTRAINT "contact_channels_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_channels" ADD CONSTRAINT "contact_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_api_keys_project_idx" ON "project_api_keys" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "project_api_keys_pck_idx" ON "project_api_keys" USING btree ("publishable_client_key_hash");--> statement-breakpoint
CREATE INDEX "project_api_keys_ssk_idx" ON "project_api_keys" USING btree ("secret_server_key_hash");--> statement-breakpoint
CREATE INDEX "project_api_keys_sak_idx" ON "project_api_keys" USING btree ("super_secret_admin_key_hash");--> statement-breakpoint
CREATE INDEX "projects_owner_team_idx" ON "projects" USING btree ("owner_team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_channels_auth_unique" ON "contact_channels" USING btree ("project_id","branch_id","type",lower("value")) WHERE "contact_channels"."used_for_auth";--> statement-breakpoint
CREATE UNIQUE INDEX "contact_channels_user_value_unique" ON "contact_channels" USING btree ("user_id","type",lower("value"));--> statement-breakpoint
CREATE UNIQUE INDEX "contact_channels_one_primary" ON "contact_channels" USING btree ("user_id","type") WHERE "contact_channels"."is_primary";--> statement-breakpoint
CREATE INDEX "contact_channels_lookup_idx" ON "contact_channels" USING btree ("project_id","branch_id",lower("value"));--> statement-breakpoint
CREATE INDEX "users_listing_idx" ON "users" USING btree ("project_id","branch_id","signed_up_at","id");--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "teams_project_idx" ON "teams" USING btree ("project_id","branch_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_token_hash_unique" ON "sessions" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_kind_slot_unique" ON "signing_keys" USING btree ("audience_kind","slot");