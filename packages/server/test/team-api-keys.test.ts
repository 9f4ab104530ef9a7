/**
 * Team API keys: the setting, the permission matrix of a client (a member
 * needs `$manage_api_keys`, directly or through a permission containing it;
 * anyone else, another project's team included, is answered
 * API_KEY_NOT_FOUND), what a server may do, and a deleted team's keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectKeyGoesWithOwner, expectKeysOff, keyCreation, projectWithApiKeys, serverWithApiKeys } from "./api-key-fixtures.ts";
import { createProject, expectSchemaError, signUpUser, UNKNOWN_UUID, type EndUser, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";
import { addMember, createTeam } from "./permission-fixtures.ts";
import { defineTeamPermission, grantTeamPermission } from "./team-fixtures.ts";

let server: TestServer;
let project: Project;
let admin: EndUser;
let plain: EndUser;
let direct: EndUser;
let contained: EndUser;
let outsider: EndUser;
let teamId: string;

beforeAll(async () => {
  ({ server, project } = await serverWithApiKeys("team"));
  const signUp = () => signUpUser(server, project);
  [admin, plain, direct, contained, outsider] = await Promise.all([signUp(), signUp(), signUp(), signUp(), signUp()]);
  // The creator gets team_admin, which contains every system permission.
  teamId = await createTeam(server, project.id, admin.userId);
  for (const member of [plain, direct, contained]) await addMember(server, project.id, teamId, member.userId);
  await grantTeamPermission(server, project.id, teamId, direct.userId, "$manage_api_keys");
  await defineTeamPermission(server, project.id, "key_keeper", ["$manage_api_keys"]);
  await defineTeamPermission(server, project.id, "lead", ["key_keeper"]);
  await grantTeamPermission(server, project.id, teamId, contained.userId, "lead");
});
afterAll(() => server?.close());

const { create, created } = keyCreation(
  () => server,
  "team",
  () => ({ team_id: teamId, description: "team key", expires_at_millis: null }),
);

/** Every endpoint a client may call, on a team's key (an existing one of `teamId` unless told). */
function calls(team: string, keyId: string): Record<string, (as: Auth) => Promise<TestResponse>> {
  return {
    create: (as) => create(as, { team_id: team, description: "x", expires_at_millis: null }),
    list: (as) => server.request("/team-api-keys", { as, query: { team_id: team } }),
    read: (as) => server.request(`/team-api-keys/${keyId}`, { as, query: { team_id: team } }),
    update: (as) =>
      server.request(`/team-api-keys/${keyId}`, { method: "PATCH", as, body: { description: "y" }, query: { team_id: team } }),
  };
}

describe("the permission matrix of a client", () => {
  it("a member holding $manage_api_keys directly, or through a containing permission, may do everything", async () => {
    const key = await created(project.server);
    for (const member of [admin, direct, contained]) {
      for (const [name, call] of Object.entries(calls(teamId, key.id))) {
        const res = await call(member.as);
        expect(res.status, `${name}: ${res.text}`).toBe(200);
      }
    }
  });

  it("a member without it, a non-member, and a team of no one are API_KEY_NOT_FOUND", async () => {
    const key = await created(project.server);
    // A member without the permission, and a non-member.
    for (const as of [plain.as, outsider.as]) {
      for (const call of Object.values(calls(teamId, key.id))) expectKnownError(await call(as), "API_KEY_NOT_FOUND", 404);
    }
    for (const call of Object.values(calls(UNKNOWN_UUID, key.id))) expectKnownError(await call(admin.as), "API_KEY_NOT_FOUND", 404);
  });

  it("another project's team is never reachable, by its members or its server", async () => {
    const other = await projectWithApiKeys(server, "team");
    const stranger = await signUpUser(server, other);
    const key = await created(project.server);
    // A member of this project's team, through the other project's keys.
    const asElsewhere = { ...other.client, accessToken: stranger.accessToken };
    for (const call of Object.values(calls(teamId, key.id))) expectKnownError(await call(asElsewhere), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await calls(teamId, key.id).read!(other.server), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await calls(teamId, key.id).create!(other.server), "TEAM_NOT_FOUND", 404);
    expect((await calls(teamId, key.id).list!(other.server)).body.items).toEqual([]);
  });

  it("no signed-in user: USER_AUTHENTICATION_REQUIRED", async () => {
    expectKnownError(await calls(teamId, UNKNOWN_UUID).list!(project.client), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("a key of another team, named with this team, is not found", async () => {
    const otherTeam = await createTeam(server, project.id, direct.userId);
    const key = await created(project.server, { team_id: otherTeam });
    expectKnownError(await calls(teamId, key.id).read!(admin.as), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await calls(teamId, key.id).read!(project.server), "API_KEY_NOT_FOUND", 404);
    expect((await calls(otherTeam, key.id).read!(project.server)).status).toBe(200);
  });
});

describe("the endpoints", () => {
  it("create answers the full key once (team layout), then reads show the last four", async () => {
    const key = await created(direct.as, { description: "CI", is_public: true });
    expect(key).toMatchObject({ description: "CI", is_public: true, type: "team", team_id: teamId });
    expect(key.user_id).toBeUndefined();
    expect(key.value).toMatch(/^pk_[0-9a-z]{77}team3574ck4u7h[0-9a-f]{8}$/);
    const res = await calls(teamId, key.id).read!(direct.as);
    expect(res.body.value).toEqual({ last_four: key.value.slice(-4) });
  });

  it("list is newest first; team_id is required", async () => {
    const team = await createTeam(server, project.id, admin.userId);
    const first = await created(admin.as, { team_id: team });
    server.clock.advance(1000);
    const second = await created(admin.as, { team_id: team });
    const res = await calls(team, first.id).list!(admin.as);
    expect(res.body).toEqual({
      items: [expect.objectContaining({ id: second.id }), expect.objectContaining({ id: first.id })],
      is_paginated: false,
    });
    expectSchemaError(await server.request("/team-api-keys", { as: admin.as }), "GET", "/team-api-keys", ["query.team_id must be defined"]);
  });

  it("update revokes for good", async () => {
    const key = await created(admin.as);
    const res = await server.request(`/team-api-keys/${key.id}`, {
      method: "PATCH",
      as: direct.as,
      body: { revoked: true },
      query: { team_id: teamId },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.manually_revoked_at_millis).toBeTypeOf("number");
  });

  it("the setting off: 400 in plain text, before the permission check", async () => {
    const off = await createProject(server);
    const user = await signUpUser(server, off);
    for (const call of Object.values(calls(UNKNOWN_UUID, UNKNOWN_UUID))) expectKeysOff(await call(user.as), "team");
  });
});

describe("a deleted team", () => {
  it("takes its keys along", async () => {
    const team = await createTeam(server, project.id, admin.userId);
    const key = await created(project.server, { team_id: team });
    await expectKeyGoesWithOwner(server, project, "team", key, `/teams/${team}`);
  });
});
