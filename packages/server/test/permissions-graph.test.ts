/**
 * Containment as a graph: a chain 10 deep resolves (from the caches, without
 * waiting), cycles are refused however they would be made (also by two
 * concurrent changes), and renaming or deleting a definition reaches its
 * grants, the definitions that contain it and the project's default lists.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teamPermissionGrants } from "../src/db/schema/index.ts";
import { createProject, patchProjectConfig, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import { addMember, createTeam, defined, ids, permissionCalls, type PermissionCalls } from "./permission-fixtures.ts";

let server: TestServer;
let calls: PermissionCalls;
let project: Project;
let alice: EndUser;
let bob: EndUser;
let team: string;

beforeAll(async () => {
  server = await createTestServer();
  calls = permissionCalls(server);
  project = await createProject(server);
  [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
  team = await createTeam(server, project.id, alice.userId);
  await addMember(server, project.id, team, bob.userId);
});
afterAll(() => server?.close());

function expectCycle(res: TestResponse, path: string[]) {
  expectKnownError(res, "SCHEMA_ERROR", 400);
  // Worded like any validation failure, naming the request.
  const message = `body.contained_permission_ids would make a cycle: ${path.join(" → ")}`;
  expect(res.body.error).toMatch(
    /^Request validation failed on (POST|PATCH) \/api\/v1\/(team|project)-permission-definitions(\/[a-z_:$]+)?:\n {2}- /,
  );
  expect(res.body.error.endsWith(`\n  - ${message}`)).toBe(true);
  expect(res.body.details).toEqual({ message: res.body.error });
}

async function config() {
  const res = await server.request("/internal/projects/current", { as: project.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return res.body.config;
}

describe("a containment chain 10 deep", () => {
  it("resolves in a recursive listing, answered synchronously once cached", async () => {
    await defined(calls, project.admin, "team", "level1", ["$update_team"]);
    for (let level = 2; level <= 10; level++) await defined(calls, project.admin, "team", `level${level}`, [`level${level - 1}`]);
    expect((await calls.grantTeam(project.server, team, bob.userId, "level10")).status).toBe(201);

    const levels = Array.from({ length: 10 }, (_, i) => `level${i + 1}`);
    const expected = ["$invite_members", "$read_members", "$update_team", ...levels, "team_member"].sort();
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: true }))).toEqual(expected);
    const updateTeam = { team_id: team, user_id: "me", permission_id: "$update_team", recursive: true };
    expect(ids(await calls.listTeam(bob.as, updateTeam))).toEqual(["$update_team"]);
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).toEqual(["level10", "team_member"]);

    // The request path answers without a promise once the grants and the graph are cached (lib/maybe-async.ts).
    const path = `/api/v1/team-permissions?team_id=${team}&user_id=me&permission_id=%24update_team&recursive=true`;
    const send = () => server.instance.app.fetch(new Request(`http://localhost${path}`, { headers: authHeaders(bob.as) }));
    const expectAnswer = async (answer: Response | Promise<Response>) =>
      expect(JSON.parse(await (await answer).text()).items).toEqual([{ id: "$update_team", team_id: team, user_id: bob.userId }]);
    // On PostgreSQL this process hears its own writes once more a moment later, and drops them again: wait for that first.
    await server.cachesCaughtUp();
    await expectAnswer(send());
    const cached = send();
    expect(cached).not.toBeInstanceOf(Promise);
    await expectAnswer(cached);
  });

  it("loses everything below a link that is cut", async () => {
    const res = await calls.patchDefinition(project.admin, "team", "level5", { contained_permission_ids: [] });
    expect(res.status, res.text).toBe(200);
    const held = ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: true }));
    expect(held).toContain("level5");
    expect(held).not.toContain("level4");
    expect(held).not.toContain("$update_team");
  });
});

describe("cycles", () => {
  it("refuses a definition that contains itself, at creation and by PATCH", async () => {
    expectCycle(await calls.define(project.admin, "team", { id: "selfish", contained_permission_ids: ["selfish"] }), [
      "selfish",
      "selfish",
    ]);
    expectKnownError(await calls.definition(project.admin, "team", "selfish"), "PERMISSION_NOT_FOUND", 404);
    await defined(calls, project.admin, "project", "loner");
    expectCycle(await calls.patchDefinition(project.admin, "project", "loner", { contained_permission_ids: ["loner"] }), [
      "loner",
      "loner",
    ]);
    // Renamed and made to contain its new name in one PATCH.
    expectCycle(await calls.patchDefinition(project.admin, "project", "loner", { id: "single", contained_permission_ids: ["single"] }), [
      "single",
      "single",
    ]);
  });

  it("refuses a two-step and a three-step cycle made by PATCH", async () => {
    await defined(calls, project.admin, "team", "cyc_b");
    await defined(calls, project.admin, "team", "cyc_a", ["cyc_b"]);
    expectCycle(await calls.patchDefinition(project.admin, "team", "cyc_b", { contained_permission_ids: ["cyc_a"] }), [
      "cyc_b",
      "cyc_a",
      "cyc_b",
    ]);
    await defined(calls, project.admin, "team", "cyc_c", ["cyc_a"]);
    expectCycle(await calls.patchDefinition(project.admin, "team", "cyc_b", { contained_permission_ids: ["$read_members", "cyc_c"] }), [
      "cyc_b",
      "cyc_c",
      "cyc_a",
      "cyc_b",
    ]);
    // A rename names the cycle by the new id.
    expectCycle(await calls.patchDefinition(project.admin, "team", "cyc_b", { id: "cyc_z", contained_permission_ids: ["cyc_a"] }), [
      "cyc_z",
      "cyc_a",
      "cyc_z",
    ]);
    expect((await calls.definition(project.admin, "team", "cyc_b")).body.contained_permission_ids).toEqual([]);
  });

  it("lets only one of two concurrent changes that would close a loop succeed", async () => {
    await defined(calls, project.admin, "team", "race_x");
    await defined(calls, project.admin, "team", "race_y");
    const [x, y] = await Promise.all([
      calls.patchDefinition(project.admin, "team", "race_x", { contained_permission_ids: ["race_y"] }),
      calls.patchDefinition(project.admin, "team", "race_y", { contained_permission_ids: ["race_x"] }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 400]);
    expectKnownError(x.status === 400 ? x : y, "SCHEMA_ERROR", 400);
    const [xNow, yNow] = await Promise.all([
      calls.definition(project.admin, "team", "race_x"),
      calls.definition(project.admin, "team", "race_y"),
    ]);
    expect([xNow.body.contained_permission_ids, yNow.body.contained_permission_ids]).toEqual(
      x.status === 200 ? [["race_y"], []] : [[], ["race_x"]],
    );
  });
});

describe("renaming a definition", () => {
  it("carries the new id to grants, containing definitions and default lists", async () => {
    await defined(calls, project.admin, "team", "writer", [], "Writes");
    await defined(calls, project.admin, "team", "editor", ["$update_team", "writer"]);
    await defined(calls, project.admin, "project", "viewer");
    expect((await calls.grantTeam(project.server, team, bob.userId, "writer")).status).toBe(201);
    expect((await calls.grantProject(project.server, alice.userId, "viewer")).status).toBe(201);
    await patchProjectConfig(server, project, {
      team_creator_default_permissions: [{ id: "team_admin" }, { id: "writer" }],
      team_member_default_permissions: [{ id: "writer" }, { id: "team_member" }],
      user_default_permissions: [{ id: "viewer" }],
    });
    // Cached before the rename, so the rename must reach the caches.
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).toContain("writer");
    expect(ids(await calls.listProject(alice.as, { user_id: "me" }))).toEqual(["viewer"]);

    const renamed = await calls.patchDefinition(project.admin, "team", "writer", { id: "author" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ contained_permission_ids: [], description: "Writes", id: "author" });
    expectKnownError(await calls.definition(project.admin, "team", "writer"), "PERMISSION_NOT_FOUND", 404);
    expect((await calls.definition(project.admin, "team", "editor")).body.contained_permission_ids).toEqual(["$update_team", "author"]);
    const direct = ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }));
    expect(direct).toContain("author");
    expect(direct).not.toContain("writer");

    expect((await calls.patchDefinition(project.admin, "project", "viewer", { id: "reader" })).status).toBe(200);
    expect(ids(await calls.listProject(alice.as, { user_id: "me" }))).toEqual(["reader"]);

    const after = await config();
    // Default lists read back by id.
    expect(after.team_creator_default_permissions).toEqual([{ id: "author" }, { id: "team_admin" }]);
    expect(after.team_member_default_permissions).toEqual([{ id: "author" }, { id: "team_member" }]);
    expect(after.user_default_permissions).toEqual([{ id: "reader" }]);

    // New members and users get the renamed defaults.
    const carol = await signUpUser(server, project);
    expect(ids(await calls.listProject(carol.as, { user_id: "me" }))).toEqual(["reader"]);
    await addMember(server, project.id, team, carol.userId);
    expect(ids(await calls.listTeam(carol.as, { team_id: team, user_id: "me", recursive: false }))).toEqual(["author", "team_member"]);
  });
});

describe("deleting a definition", () => {
  it("removes it from grants, containing definitions and default lists, in every cache", async () => {
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).toContain("author");
    const res = await calls.deleteDefinition(project.admin, "team", "author");
    expect(res.status, res.text).toBe(200);
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).not.toContain("author");
    expect(ids(await calls.listTeam(project.server, { permission_id: "author" }))).toEqual([]);
    expect((await calls.definition(project.admin, "team", "editor")).body.contained_permission_ids).toEqual(["$update_team"]);
    const after = await config();
    expect(after.team_creator_default_permissions).toEqual([{ id: "team_admin" }]);
    expect(after.team_member_default_permissions).toEqual([{ id: "team_member" }]);

    expect((await calls.deleteDefinition(project.admin, "project", "reader")).status).toBe(200);
    expect(ids(await calls.listProject(alice.as, { user_id: "me" }))).toEqual([]);
    expect(ids(await calls.listProject(project.server, {}))).toEqual([]);
    expect((await config()).user_default_permissions).toEqual([]);

    // A new definition of the same id starts with no grants.
    await defined(calls, project.admin, "team", "author");
    expect(ids(await calls.listTeam(project.server, { permission_id: "author" }))).toEqual([]);
  });

  it("reaches each cached member when no default list names it", async () => {
    await defined(calls, project.admin, "team", "temporary");
    for (const member of [alice, bob]) expect((await calls.grantTeam(project.server, team, member.userId, "temporary")).status).toBe(201);
    for (const member of [alice, bob])
      expect(ids(await calls.listTeam(member.as, { team_id: team, user_id: "me" }))).toContain("temporary");
    expect((await calls.patchDefinition(project.admin, "team", "temporary", { id: "interim" })).status).toBe(200);
    for (const member of [alice, bob])
      expect(ids(await calls.listTeam(member.as, { team_id: team, user_id: "me", recursive: false }))).toContain("interim");
    expect((await calls.deleteDefinition(project.admin, "team", "interim")).status).toBe(200);
    for (const member of [alice, bob])
      expect(ids(await calls.listTeam(member.as, { team_id: team, user_id: "me", recursive: false }))).not.toContain("interim");
  });

  it("skips a grant whose definition is gone, should one be left behind", async () => {
    const { db, bus } = server.instance.services;
    await db.insert(teamPermissionGrants).values({ projectId: project.id, teamId: team, userId: alice.userId, permissionId: "ghost" });
    bus.apply({ t: "team-member", team, user: alice.userId });
    const direct = ids(await calls.listTeam(alice.as, { team_id: team, user_id: "me", recursive: false }));
    expect(direct).not.toContain("ghost");
    expect(direct).toContain("team_admin");
    expect(ids(await calls.listTeam(project.server, { team_id: team }))).not.toContain("ghost");
    await db.delete(teamPermissionGrants).where(and(eq(teamPermissionGrants.teamId, team), eq(teamPermissionGrants.permissionId, "ghost")));
  });
});
