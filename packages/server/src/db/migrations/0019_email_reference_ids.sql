-- The built-in e-mail themes and templates take the fixed ids clients of the wire contract know.
-- Rows, references to them (a template's or draft's theme) and config overrides naming them (the
-- selected theme, templates or themes keyed by id) move from the old ids to the new ones.
CREATE TEMPORARY TABLE "email_id_moves" ("old_id" uuid PRIMARY KEY, "new_id" uuid NOT NULL) ON COMMIT DROP;
--> statement-breakpoint
INSERT INTO "email_id_moves" VALUES
  ('09ced0c6-bd94-4a7d-9621-fd31fe6ac229'::uuid, 'a0172b5d-cff0-463b-83bb-85124697373a'::uuid),
  ('66795596-f2ab-400c-8894-41bd895d3e1f'::uuid, 'e7d009ce-8d47-4528-b245-5bf119f2ffa3'::uuid),
  ('0a9cf21e-158b-424d-8476-5a14c4f564e6'::uuid, '822687fe-8d0a-4467-a0d1-416b6e639478'::uuid),
  ('8268656d-440f-49fd-ae0b-79cf04bcb6f7'::uuid, 'a70fb3a4-56c1-4e42-af25-49d25603abd0'::uuid),
  ('ce8f1216-ec43-4a64-b60b-ae1d7d3f9f47'::uuid, 'e84de395-2076-4831-9c19-8e9a96a868e4'::uuid);
--> statement-breakpoint
UPDATE "email_themes" SET "id" = m."new_id" FROM "email_id_moves" m WHERE "email_themes"."id" = m."old_id";
--> statement-breakpoint
UPDATE "email_templates" SET "id" = m."new_id" FROM "email_id_moves" m WHERE "email_templates"."id" = m."old_id";
--> statement-breakpoint
UPDATE "email_templates" SET "theme_id" = m."new_id" FROM "email_id_moves" m WHERE "email_templates"."theme_id" = m."old_id";
--> statement-breakpoint
UPDATE "email_drafts" SET "theme_id" = m."new_id" FROM "email_id_moves" m WHERE "email_drafts"."theme_id" = m."old_id";
--> statement-breakpoint
UPDATE "project_config_overrides" SET "override" = replace(replace(replace(replace(replace("override"::text, '09ced0c6-bd94-4a7d-9621-fd31fe6ac229', 'a0172b5d-cff0-463b-83bb-85124697373a'), '66795596-f2ab-400c-8894-41bd895d3e1f', 'e7d009ce-8d47-4528-b245-5bf119f2ffa3'), '0a9cf21e-158b-424d-8476-5a14c4f564e6', '822687fe-8d0a-4467-a0d1-416b6e639478'), '8268656d-440f-49fd-ae0b-79cf04bcb6f7', 'a70fb3a4-56c1-4e42-af25-49d25603abd0'), 'ce8f1216-ec43-4a64-b60b-ae1d7d3f9f47', 'e84de395-2076-4831-9c19-8e9a96a868e4')::json;
--> statement-breakpoint
UPDATE "branch_config_overrides" SET "branch_override" = replace(replace(replace(replace(replace("branch_override"::text, '09ced0c6-bd94-4a7d-9621-fd31fe6ac229', 'a0172b5d-cff0-463b-83bb-85124697373a'), '66795596-f2ab-400c-8894-41bd895d3e1f', 'e7d009ce-8d47-4528-b245-5bf119f2ffa3'), '0a9cf21e-158b-424d-8476-5a14c4f564e6', '822687fe-8d0a-4467-a0d1-416b6e639478'), '8268656d-440f-49fd-ae0b-79cf04bcb6f7', 'a70fb3a4-56c1-4e42-af25-49d25603abd0'), 'ce8f1216-ec43-4a64-b60b-ae1d7d3f9f47', 'e84de395-2076-4831-9c19-8e9a96a868e4')::json,
  "environment_override" = replace(replace(replace(replace(replace("environment_override"::text, '09ced0c6-bd94-4a7d-9621-fd31fe6ac229', 'a0172b5d-cff0-463b-83bb-85124697373a'), '66795596-f2ab-400c-8894-41bd895d3e1f', 'e7d009ce-8d47-4528-b245-5bf119f2ffa3'), '0a9cf21e-158b-424d-8476-5a14c4f564e6', '822687fe-8d0a-4467-a0d1-416b6e639478'), '8268656d-440f-49fd-ae0b-79cf04bcb6f7', 'a70fb3a4-56c1-4e42-af25-49d25603abd0'), 'ce8f1216-ec43-4a64-b60b-ae1d7d3f9f47', 'e84de395-2076-4831-9c19-8e9a96a868e4')::json;
--> statement-breakpoint
UPDATE "projects" SET "config" = replace(replace(replace(replace(replace("config"::text, '09ced0c6-bd94-4a7d-9621-fd31fe6ac229', 'a0172b5d-cff0-463b-83bb-85124697373a'), '66795596-f2ab-400c-8894-41bd895d3e1f', 'e7d009ce-8d47-4528-b245-5bf119f2ffa3'), '0a9cf21e-158b-424d-8476-5a14c4f564e6', '822687fe-8d0a-4467-a0d1-416b6e639478'), '8268656d-440f-49fd-ae0b-79cf04bcb6f7', 'a70fb3a4-56c1-4e42-af25-49d25603abd0'), 'ce8f1216-ec43-4a64-b60b-ae1d7d3f9f47', 'e84de395-2076-4831-9c19-8e9a96a868e4')::jsonb WHERE "config" IS NOT NULL;
