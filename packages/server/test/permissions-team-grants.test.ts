/**
 * Team permissions: granting, revoking and listing them, with every refusal
 * (unknown user, team, membership or permission, wrong scope, wrong access
 * type, a client naming another user, another project's user or team), and
 * the caches answering a change at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaErrorIncluding,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { addMember, createTeam, defined, ids, permissionCalls, type PermissionCalls } from "./permission-fixtures.ts";

let server: TestServer;
let calls: PermissionCalls;
let project: Project;
let other: Project;
let alice: EndUser;
let bob: EndUser;
let outsider: EndUser;
let stranger: EndUser;
let team: string;
let otherTeam: string;

beforeAll(async () => {
  server = await createTestServer();
  calls = permissionCalls(server);
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
  [alice, bob, outsider, stranger] = await Promise.all([
    signUpUser(server, project),
    signUpUser(server, project),
    signUpUser(server, project),
    signUpUser(server, other),
  ]);
  team = await createTeam(server, project.id, alice.userId);
  await addMember(server, project.id, team, bob.userId);
  otherTeam = await createTeam(server, other.id, stranger.userId);
  await defined(calls, project.admin, "team", "read_docs");
  await defined(calls, project.admin, "project", "billing");
});
afterAll(() => server?.close());

describe("GET /team-permissions", () => {
  it("lists a member's direct grants, and with recursive=true what they contain too", async () => {
    const res = await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: true });
    expect(res.body.items).toEqual([
      { id: "$invite_members", team_id: team, user_id: bob.userId },
      { id: "$read_members", team_id: team, user_id: bob.userId },
      { id: "team_member", team_id: team, user_id: bob.userId },
    ]);
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: bob.userId, recursive: false }))).toEqual(["team_member"]);
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me" }))).toEqual(["team_member"]);
    expect(ids(await calls.listTeam(project.server, { team_id: team, user_id: bob.userId }))).toEqual(["team_member"]);
  });

  it("filters by permission id after expanding", async () => {
    const query = { team_id: team, user_id: "me", permission_id: "$read_members" };
    expect(ids(await calls.listTeam(bob.as, { ...query, recursive: true }))).toEqual(["$read_members"]);
    expect(ids(await calls.listTeam(bob.as, query))).toEqual([]);
    expect(ids(await calls.listTeam(bob.as, { user_id: "me", permission_id: "$read_members", recursive: false }))).toEqual([]);
  });

  it("lists every team of the user when no team is named, sorted by team then id", async () => {
    const second = await createTeam(server, project.id, bob.userId);
    const res = await calls.listTeam(bob.as, { user_id: "me", recursive: false });
    const expected = [
      { id: "team_member", team_id: team, user_id: bob.userId },
      { id: "team_admin", team_id: second, user_id: bob.userId },
    ].sort((a, b) => (a.team_id < b.team_id ? -1 : 1));
    expect(res.body.items).toEqual(expected);
  });

  it("answers an empty list for a team the user is not in, or that does not exist", async () => {
    expect(ids(await calls.listTeam(outsider.as, { team_id: team, user_id: "me" }))).toEqual([]);
    expect(ids(await calls.listTeam(outsider.as, { team_id: UNKNOWN_UUID, user_id: "me" }))).toEqual([]);
    // Another project's team lists nothing here, even for the server.
    expect(ids(await calls.listTeam(project.server, { team_id: otherTeam }))).toEqual([]);
  });

  it("refuses a client that names no user, or another user", async () => {
    expectPlainError(await calls.listTeam(alice.as, { team_id: team }), 403, /only list its own permissions.*user_id=me/);
    expectPlainError(await calls.listTeam(alice.as, { team_id: team, user_id: bob.userId }), 403);
    expectKnownError(await calls.listTeam(project.client, { user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lets the server list one user, one team, or every grant of the project in order", async () => {
    expect(ids(await calls.listTeam(project.server, { user_id: bob.userId, team_id: team, recursive: false }))).toEqual(["team_member"]);
    expectKnownError(await calls.listTeam(project.server, { user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    expectKnownError(await calls.listTeam(project.server, { user_id: stranger.userId }), "USER_NOT_FOUND", 404);
    const all = await calls.listTeam(project.admin, { team_id: team, recursive: false });
    const expected = [
      { id: "team_admin", team_id: team, user_id: alice.userId },
      { id: "team_member", team_id: team, user_id: bob.userId },
    ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
    expect(all.body.items).toEqual(expected);
    const everyone = await calls.listTeam(project.server, { permission_id: "$delete_team", recursive: true });
    expect((await calls.listTeam(project.server, { permission_id: "$delete_team" })).body.items).toEqual([]);
    expect(everyone.body.items).toContainEqual({ id: "$delete_team", team_id: team, user_id: alice.userId });
    for (const item of everyone.body.items) expect(item.id).toBe("$delete_team");
  });

  it("checks its query", async () => {
    expectSchemaErrorIncluding(
      await calls.listTeam(project.server, { permission_id: "$nope" }),
      "query.permission_id: Invalid system permission",
    );
    expectKnownError(await calls.listTeam(project.server, { team_id: "not-a-uuid" }), "SCHEMA_ERROR", 400);
    expectKnownError(await calls.listTeam(project.server, { recursive: "yes" }), "SCHEMA_ERROR", 400);
  });
});

describe("POST /team-permissions/{team}/{user}/{permission}", () => {
  it("grants, idempotently, and the listing shows it at once", async () => {
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me" }))).not.toContain("read_docs");
    for (let i = 0; i < 2; i++) {
      const res = await calls.grantTeam(project.server, team, bob.userId, "read_docs");
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ id: "read_docs", team_id: team, user_id: bob.userId });
    }
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).toEqual(["read_docs", "team_member"]);
  });

  it("grants a system permission (always defined), also as admin", async () => {
    const res = await calls.grantTeam(project.admin, team, bob.userId, "$remove_members");
    expect(res.status, res.text).toBe(201);
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me" }))).toContain("$remove_members");
  });

  it("refuses an unknown user, a non-member, an unknown team, an unknown or project permission", async () => {
    expectKnownError(await calls.grantTeam(project.server, team, UNKNOWN_UUID, "read_docs"), "USER_NOT_FOUND", 404);
    const notMember = await calls.grantTeam(project.server, team, outsider.userId, "read_docs");
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.details).toEqual({ team_id: team, user_id: outsider.userId });
    expectKnownError(await calls.grantTeam(project.server, UNKNOWN_UUID, bob.userId, "read_docs"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const unknown = await calls.grantTeam(project.server, team, bob.userId, "nothing_here");
    expectKnownError(unknown, "PERMISSION_NOT_FOUND", 404);
    expect(unknown.body.details).toEqual({ permission_id: "nothing_here" });
    const scope = await calls.grantTeam(project.server, team, bob.userId, "billing");
    expectKnownError(scope, "WRONG_PERMISSION_SCOPE", 404);
    expect(scope.body.details).toEqual({ permission_id: "billing", expected_scope: "team", actual_scope: "project" });
  });

  it("refuses a client, a bad id, and another project's user or team", async () => {
    expectKnownError(await calls.grantTeam(alice.as, team, alice.userId, "read_docs"), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectSchemaErrorIncluding(
      await calls.grantTeam(project.server, team, bob.userId, "$nope"),
      "params.permission_id: Invalid system permission",
    );
    expectKnownError(await calls.grantTeam(project.server, team, bob.userId, "Bad-Id"), "SCHEMA_ERROR", 400);
    expectKnownError(await calls.grantTeam(project.server, team, stranger.userId, "read_docs"), "USER_NOT_FOUND", 404);
    expectKnownError(await calls.grantTeam(project.server, otherTeam, alice.userId, "read_docs"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await calls.grantTeam(other.server, otherTeam, stranger.userId, "read_docs"), "PERMISSION_NOT_FOUND", 404);
  });
});

describe("DELETE /team-permissions/{team}/{user}/{permission}", () => {
  it("revokes a direct grant, and the listing drops it at once", async () => {
    expect((await calls.grantTeam(project.server, team, alice.userId, "read_docs")).status).toBe(201);
    expect(ids(await calls.listTeam(alice.as, { team_id: team, user_id: "me" }))).toContain("read_docs");
    const res = await calls.revokeTeam(project.server, team, alice.userId, "read_docs");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(ids(await calls.listTeam(alice.as, { team_id: team, user_id: "me" }))).not.toContain("read_docs");
    expectKnownError(await calls.revokeTeam(project.server, team, alice.userId, "read_docs"), "TEAM_PERMISSION_NOT_FOUND", 401);
  });

  it("revokes only direct grants: a contained permission stays with its container", async () => {
    const res = await calls.revokeTeam(project.server, team, alice.userId, "$update_team");
    expectKnownError(res, "TEAM_PERMISSION_NOT_FOUND", 401);
    expect(res.body.details).toEqual({ team_id: team, user_id: alice.userId, permission_id: "$update_team" });
    expect(ids(await calls.listTeam(alice.as, { team_id: team, user_id: "me", recursive: true }))).toContain("$update_team");
  });

  it("refuses an unknown user, a non-member, an unknown permission, a client", async () => {
    expectKnownError(await calls.revokeTeam(project.server, team, UNKNOWN_UUID, "team_member"), "USER_NOT_FOUND", 404);
    expectKnownError(await calls.revokeTeam(project.server, team, outsider.userId, "team_member"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await calls.revokeTeam(project.server, UNKNOWN_UUID, bob.userId, "team_member"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await calls.revokeTeam(project.server, team, bob.userId, "never_defined"), "TEAM_PERMISSION_NOT_FOUND", 401);
    expectKnownError(await calls.revokeTeam(bob.as, team, bob.userId, "team_member"), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectKnownError(await calls.revokeTeam(project.server, otherTeam, stranger.userId, "team_admin"), "USER_NOT_FOUND", 404);
    // Nothing was revoked along the way.
    expect(ids(await calls.listTeam(bob.as, { team_id: team, user_id: "me", recursive: false }))).toContain("team_member");
  });
});
