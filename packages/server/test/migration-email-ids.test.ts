/**
 * Migration 0019 on a database that already has e-mail themes, templates and
 * drafts under the built-in ids of earlier versions: rows, the themes they
 * point to and config overrides naming them move to the fixed ids; other ids
 * stay as they are.
 */
import { DARK_EMAIL_THEME_ID, DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectDatabase, type Database } from "../src/db/connect.ts";
import { migrate, migrationFiles } from "../src/db/migrate.ts";

const OLD_DARK = "09ced0c6-bd94-4a7d-9621-fd31fe6ac229";
const OLD_VERIFICATION = "66795596-f2ab-400c-8894-41bd895d3e1f";
const OLD_SIGN_IN = "0a9cf21e-158b-424d-8476-5a14c4f564e6";
const OWN_THEME = "33333333-3333-4333-8333-333333333333";
const OWN_TEMPLATE = "44444444-4444-4444-8444-444444444444";

let database: Database;

beforeAll(async () => {
  database = await connectDatabase({ kind: "pglite" });
});
afterAll(() => database?.close());

it("moves stored built-in themes and templates, and what names them, to the fixed ids", async () => {
  const before = migrationFiles().filter((file) => file.name < "0019");
  await database.rawTransaction(async (run) => {
    await run("CREATE TABLE latchkey_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    for (const file of before) {
      await run(file.sql.replaceAll("--> statement-breakpoint", ""));
      await run(`INSERT INTO latchkey_migrations (name) VALUES ('${file.name}')`);
    }
    await run("INSERT INTO projects (id, display_name) VALUES ('p1', 'Old project')");
    await run(`INSERT INTO email_themes (id, project_id, display_name, tsx_source) VALUES
      ('${OLD_DARK}', 'p1', 'Default Dark', 'dark source'), ('${OWN_THEME}', 'p1', 'Own', 'own source')`);
    await run(`INSERT INTO email_templates (id, project_id, display_name, tsx_source, theme_id) VALUES
      ('${OLD_VERIFICATION}', 'p1', 'E-mail verification', 'edited verification', '${OLD_DARK}'),
      ('${OLD_SIGN_IN}', 'p1', 'Sign-in code', 'sign-in source', null),
      ('${OWN_TEMPLATE}', 'p1', 'Own', 'own template', '${OWN_THEME}')`);
    await run(`INSERT INTO email_drafts (project_id, display_name, tsx_source, theme_id) VALUES ('p1', 'Draft', 'x', '${OLD_DARK}')`);
    await run(`INSERT INTO project_config_overrides (project_id, override) VALUES ('p1', '{"emails.selectedThemeId": "${OLD_DARK}"}')`);
    await run(`INSERT INTO branch_config_overrides (project_id, branch_id, environment_override)
      VALUES ('p1', 'main', '{"emails": {"selectedThemeId": "${OLD_DARK}", "templates": {"${OLD_SIGN_IN}": {"displayName": "x"}}}}')`);
  });

  const applied = await migrate(database);
  // 0019 and whatever came after it.
  expect(applied[0]).toBe("0019_email_reference_ids.sql");

  await database.rawTransaction(async (run) => {
    const themes = await run("SELECT id, tsx_source FROM email_themes WHERE project_id = 'p1' ORDER BY tsx_source");
    expect(themes.map((r) => [r.id, r.tsx_source])).toEqual([
      [DARK_EMAIL_THEME_ID, "dark source"],
      [OWN_THEME, "own source"],
    ]);
    const templates = await run("SELECT id, tsx_source, theme_id FROM email_templates WHERE project_id = 'p1' ORDER BY tsx_source");
    expect(templates.map((r) => [r.id, r.tsx_source, r.theme_id])).toEqual([
      [DEFAULT_EMAIL_TEMPLATE_IDS.email_verification, "edited verification", DARK_EMAIL_THEME_ID],
      [OWN_TEMPLATE, "own template", OWN_THEME],
      [DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code, "sign-in source", null],
    ]);
    expect((await run("SELECT theme_id FROM email_drafts"))[0]!.theme_id).toBe(DARK_EMAIL_THEME_ID);
    const [project] = await run("SELECT override::text AS o FROM project_config_overrides");
    expect(JSON.parse(String(project!.o))).toEqual({ "emails.selectedThemeId": DARK_EMAIL_THEME_ID });
    const [branch] = await run("SELECT environment_override::text AS o FROM branch_config_overrides");
    expect(JSON.parse(String(branch!.o))).toEqual({
      emails: { selectedThemeId: DARK_EMAIL_THEME_ID, templates: { [DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code]: { displayName: "x" } } },
    });
  });
});
