CREATE TABLE "user_activity_days" (
	"project_id" text NOT NULL,
	"branch_id" text DEFAULT 'main' NOT NULL,
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	"is_anonymous" boolean NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "user_activity_days_project_id_branch_id_day_user_id_pk" PRIMARY KEY("project_id","branch_id","day","user_id")
);
--> statement-breakpoint
ALTER TABLE "user_activity_days" ADD CONSTRAINT "user_activity_days_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_activity_days" ADD CONSTRAINT "user_activity_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_activity_days_user_idx" ON "user_activity_days" USING btree ("user_id");