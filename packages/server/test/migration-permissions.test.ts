/**
 * Migration 0006 on a database that already has projects and teams: every
 * project gets team_admin and team_member, and each existing member (the
 * creator of a personal team) gets the project's team-creator defaults —
 * only the ids that name a team permission of that project.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectDatabase, type Database } from "../src/db/connect.ts";
import { migrate, migrationFiles } from "../src/db/migrate.ts";

let database: Database;

beforeAll(async () => {
  database = await connectDatabase({ kind: "pglite" });
});
afterAll(() => database?.close());

it("backfills definitions and creator grants for teams made before permissions existed", async () => {
  const before = migrationFiles().filter((file) => file.name < "0006");
  await database.rawTransaction(async (run) => {
    await run("CREATE TABLE latchkey_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    for (const file of before) {
      await run(file.sql.replaceAll("--> statement-breakpoint", ""));
      await run(`INSERT INTO latchkey_migrations (name) VALUES ('${file.name}')`);
    }
    // A project whose creator defaults name a defined id, a system id and an id nothing defines.
    await run(`INSERT INTO projects (id, display_name, config) VALUES ('p1', 'Old project',
      '{"team_creator_default_permissions": [{"id": "team_admin"}, {"id": "$read_members"}, {"id": "gone"}]}')`);
    await run("INSERT INTO users (id, project_id) VALUES ('11111111-1111-4111-8111-111111111111', 'p1')");
    await run("INSERT INTO teams (id, project_id, display_name) VALUES ('22222222-2222-4222-8222-222222222222', 'p1', 'Personal Team')");
    await run(`INSERT INTO team_members (project_id, team_id, user_id)
      VALUES ('p1', '22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111')`);
  });

  const applied = await migrate(database);
  expect(applied[0]).toBe("0006_teams_and_permissions.sql");

  await database.rawTransaction(async (run) => {
    const definitions = await run(
      "SELECT id, scope, contained_permission_ids FROM permission_definitions WHERE project_id = 'p1' ORDER BY id",
    );
    expect(definitions.map((row) => [row.id, row.scope])).toEqual([
      ["team_admin", "team"],
      ["team_member", "team"],
    ]);
    const grants = await run("SELECT permission_id FROM team_permission_grants ORDER BY permission_id");
    expect(grants.map((row) => row.permission_id)).toEqual(["$read_members", "team_admin"]);
  });
});
