/**
 * Project permissions: granting, revoking and listing them, the user default
 * permissions a new user receives, and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaErrorIncluding,
  patchProjectConfig,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { defined, ids, permissionCalls, type PermissionCalls } from "./permission-fixtures.ts";

let server: TestServer;
let calls: PermissionCalls;
let project: Project;
let other: Project;
let alice: EndUser;
let bob: EndUser;
let stranger: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  calls = permissionCalls(server);
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
  [alice, bob, stranger] = await Promise.all([signUpUser(server, project), signUpUser(server, project), signUpUser(server, other)]);
  await defined(calls, project.admin, "project", "read_reports");
  await defined(calls, project.admin, "project", "billing", ["read_reports"]);
  await defined(calls, other.admin, "project", "billing");
});
afterAll(() => server?.close());

describe("POST /project-permissions/{user}/{permission}", () => {
  it("grants idempotently; the listing shows it and what it contains at once", async () => {
    expect(ids(await calls.listProject(alice.as, { user_id: "me" }))).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const res = await calls.grantProject(project.server, alice.userId, "billing");
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ id: "billing", user_id: alice.userId });
    }
    const res = await calls.listProject(alice.as, { user_id: "me", recursive: true });
    expect(res.body.items).toEqual([
      { id: "billing", user_id: alice.userId },
      { id: "read_reports", user_id: alice.userId },
    ]);
    expect(ids(await calls.listProject(alice.as, { user_id: alice.userId, recursive: false }))).toEqual(["billing"]);
    // Without recursive=true only the direct grants.
    expect(ids(await calls.listProject(alice.as, { user_id: "me" }))).toEqual(["billing"]);
    expect(ids(await calls.listProject(alice.as, { user_id: "me", permission_id: "read_reports", recursive: true }))).toEqual([
      "read_reports",
    ]);
    expect(ids(await calls.listProject(alice.as, { user_id: "me", permission_id: "read_reports" }))).toEqual([]);
  });

  it("refuses an unknown user, another project's user, an unknown, system or team permission", async () => {
    expectKnownError(await calls.grantProject(project.server, UNKNOWN_UUID, "billing"), "USER_NOT_FOUND", 404);
    expectKnownError(await calls.grantProject(project.server, stranger.userId, "billing"), "USER_NOT_FOUND", 404);
    expectKnownError(await calls.grantProject(project.server, bob.userId, "nothing_here"), "PERMISSION_NOT_FOUND", 404);
    const system = await calls.grantProject(project.server, bob.userId, "$update_team");
    expectKnownError(system, "PERMISSION_NOT_FOUND", 404);
    expect(system.body.details).toEqual({ permission_id: "$update_team" });
    const scope = await calls.grantProject(project.admin, bob.userId, "team_admin");
    expectKnownError(scope, "WRONG_PERMISSION_SCOPE", 404);
    expect(scope.body.details).toEqual({ permission_id: "team_admin", expected_scope: "project", actual_scope: "team" });
    expectSchemaErrorIncluding(
      await calls.grantProject(project.server, bob.userId, "$nope"),
      "params.permission_id: Invalid system permission",
    );
    expectKnownError(await calls.grantProject(bob.as, bob.userId, "billing"), "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(ids(await calls.listProject(project.server, { user_id: bob.userId }))).toEqual([]);
  });
});

describe("DELETE /project-permissions/{user}/{permission}", () => {
  it("revokes a direct grant only, and the listing drops it at once", async () => {
    expect((await calls.grantProject(project.server, bob.userId, "billing")).status).toBe(201);
    expectKnownError(await calls.revokeProject(project.server, bob.userId, "read_reports"), "PERMISSION_NOT_FOUND", 404);
    const res = await calls.revokeProject(project.server, bob.userId, "billing");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(ids(await calls.listProject(bob.as, { user_id: "me" }))).toEqual([]);
    expectKnownError(await calls.revokeProject(project.server, bob.userId, "billing"), "PERMISSION_NOT_FOUND", 404);
  });

  it("refuses an unknown user, another project's user, a client", async () => {
    expectKnownError(await calls.revokeProject(project.server, UNKNOWN_UUID, "billing"), "USER_NOT_FOUND", 404);
    expect((await calls.grantProject(other.server, stranger.userId, "billing")).status).toBe(201);
    expectKnownError(await calls.revokeProject(project.server, stranger.userId, "billing"), "USER_NOT_FOUND", 404);
    expect(ids(await calls.listProject(other.server, { user_id: stranger.userId }))).toEqual(["billing"]);
    expectKnownError(await calls.revokeProject(alice.as, alice.userId, "billing"), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("GET /project-permissions", () => {
  it("refuses a client that names no user or another user", async () => {
    expectPlainError(await calls.listProject(alice.as), 403, /only list its own permissions.*user_id=me/);
    expectPlainError(await calls.listProject(alice.as, { user_id: bob.userId }), 403);
    expectKnownError(await calls.listProject(project.client, { user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lists every user's grants for the server, sorted by user then id, this project only", async () => {
    expect((await calls.grantProject(project.server, bob.userId, "read_reports")).status).toBe(201);
    const res = await calls.listProject(project.server, { recursive: true });
    const expected = [
      { id: "billing", user_id: alice.userId },
      { id: "read_reports", user_id: alice.userId },
      { id: "read_reports", user_id: bob.userId },
    ].sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : a.id < b.id ? -1 : 1));
    expect(res.body.items).toEqual(expected);
    expect(ids(await calls.listProject(project.admin, { permission_id: "billing" }))).toEqual(["billing"]);
    const direct = await calls.listProject(project.server);
    expect(direct.body.items).toEqual(expected.filter((item) => item.id === "billing" || item.user_id === bob.userId));
    expectKnownError(await calls.listProject(project.server, { user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
  });
});

describe("user default permissions", () => {
  it("are granted to a new user, when defined in project scope", async () => {
    await patchProjectConfig(server, project, { user_default_permissions: [{ id: "read_reports" }, { id: "team_member" }] });
    const carol = await signUpUser(server, project);
    expect(ids(await calls.listProject(carol.as, { user_id: "me", recursive: false }))).toEqual(["read_reports"]);
  });
});
