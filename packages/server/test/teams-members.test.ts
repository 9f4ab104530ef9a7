/**
 * Team memberships (add, remove, leave; two concurrent adds) and member
 * profiles (list, read, update), with their failure cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPlainError, expectSchemaError, signUpUser, UNKNOWN_UUID, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { addMember, createTeam, createTeamsProject, grantsOf, memberCount } from "./team-fixtures.ts";

const CLIENT_PROFILE_KEYS = ["display_name", "profile_image_url", "team_id", "user_id"];

let server: TestServer;
let project: Project;
let otherProject: Project;
let alice: EndUser;
let bob: EndUser;
let stranger: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  [project, otherProject] = await Promise.all([createTeamsProject(server), createTeamsProject(server)]);
  [alice, bob, stranger] = await Promise.all([signUpUser(server, project), signUpUser(server, project), signUpUser(server, otherProject)]);
  for (const [user, name] of [
    [alice, "Alice"],
    [bob, "Bob"],
  ] as const) {
    // A picture elsewhere is set by a server (a client sends the image itself: images.test.ts).
    const res = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { display_name: name, profile_image_url: `https://example.com/${name}.png` },
    });
    expect(res.status, res.text).toBe(200);
  }
});
afterAll(() => server?.close());

const add = (as: Auth, teamId: string, userId: string) =>
  server.request(`/team-memberships/${teamId}/${userId}`, { method: "POST", as, body: {} });
const leave = (as: Auth, teamId: string, userId: string) =>
  server.request(`/team-memberships/${teamId}/${userId}`, { method: "DELETE", as });
const profiles = (as: Auth, query: Record<string, string> = {}) => server.request("/team-member-profiles", { as, query });
const profile = (as: Auth, teamId: string, userId: string) => server.request(`/team-member-profiles/${teamId}/${userId}`, { as });
const patchProfile = (as: Auth, teamId: string, userId: string, body: unknown) =>
  server.request(`/team-member-profiles/${teamId}/${userId}`, { method: "PATCH", as, body });

async function me(as: Auth) {
  const res = await server.request("/users/me", { as });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /team-memberships/{team_id}/{user_id}", () => {
  it("adds a member with the team-member defaults and a profile copied from the user", async () => {
    const team = await createTeam(server, project.server);
    const res = await add(project.server, team.id, bob.userId);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ team_id: team.id, user_id: bob.userId });
    expect(await grantsOf(server, team.id, bob.userId)).toEqual(["team_member"]);
    const read = await profile(project.server, team.id, bob.userId);
    expect(read.body).toMatchObject({ display_name: "Bob", profile_image_url: "https://example.com/Bob.png" });
    expect((await me(bob.as)).selected_team_id).not.toBe(team.id);
  });

  it("checks the user, then the team, then the membership", async () => {
    const team = await createTeam(server, project.server);
    expectKnownError(await add(project.server, UNKNOWN_UUID, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await add(project.server, team.id, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await add(project.server, UNKNOWN_UUID, alice.userId), "TEAM_NOT_FOUND", 404);
    expect((await add(project.server, team.id, alice.userId)).status).toBe(201);
    expectKnownError(await add(project.server, team.id, alice.userId), "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
    expectKnownError(await add(project.server, team.id, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectSchemaError(await add(project.server, "nope", alice.userId), "POST", `/team-memberships/nope/${alice.userId}`, [
      "params.team_id must be a valid UUID",
    ]);
    expect(
      (await server.request(`/team-memberships/${team.id}/${bob.userId}`, { method: "POST", as: project.server, body: { x: 1 } })).body
        .code,
    ).toBe("SCHEMA_ERROR");
  });

  it("is for servers only", async () => {
    const team = await createTeam(server, alice.as);
    expectKnownError(await add(alice.as, team.id, bob.userId), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("refuses a user or a team of another project", async () => {
    const team = await createTeam(server, project.server);
    const foreign = await createTeam(server, otherProject.server);
    expectKnownError(await add(project.server, team.id, stranger.userId), "USER_NOT_FOUND", 404);
    expectKnownError(await add(project.server, foreign.id, alice.userId), "TEAM_NOT_FOUND", 404);
    expect(await memberCount(server, foreign.id)).toBe(0);
  });

  it("two concurrent adds of one member: one 201, one TEAM_MEMBERSHIP_ALREADY_EXISTS", async () => {
    for (let round = 0; round < 5; round++) {
      const team = await createTeam(server, project.server);
      const answers = await Promise.all([add(project.server, team.id, alice.userId), add(project.server, team.id, alice.userId)]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expectKnownError(
        answers.find((a) => a.status === 409)!,
        "TEAM_MEMBERSHIP_ALREADY_EXISTS",
        409,
      );
      expect(await memberCount(server, team.id)).toBe(1);
      expect(await grantsOf(server, team.id, alice.userId)).toEqual(["team_member"]);
    }
  });
});

describe("DELETE /team-memberships/{team_id}/{user_id}", () => {
  it("a client leaves a team (me), which also unselects it and drops its grants", async () => {
    const team = await createTeam(server, project.server);
    await addMember(server, project, team.id, bob.userId);
    const select = await server.request("/users/me", { method: "PATCH", as: bob.as, body: { selected_team_id: team.id } });
    expect(select.status, select.text).toBe(200);
    expect((await me(bob.as)).selected_team_id).toBe(team.id);
    const res = await leave(bob.as, team.id, "me");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const after = await me(bob.as);
    expect(after.selected_team_id).toBeNull();
    expect(after.selected_team).toBeNull();
    expect(await grantsOf(server, team.id, bob.userId)).toEqual([]);
    expectKnownError(await server.request(`/teams/${team.id}`, { as: bob.as }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await leave(bob.as, team.id, "me"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("leaving another team keeps the selected one", async () => {
    const kept = await createTeam(server, project.server);
    const left = await createTeam(server, project.server);
    await addMember(server, project, kept.id, bob.userId);
    await addMember(server, project, left.id, bob.userId);
    await server.request("/users/me", { method: "PATCH", as: bob.as, body: { selected_team_id: kept.id } });
    expect((await leave(bob.as, left.id, bob.userId)).status).toBe(200);
    expect((await me(bob.as)).selected_team_id).toBe(kept.id);
  });

  it("a client leaving a team it is not in, or none: TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const team = await createTeam(server, project.server);
    expectKnownError(await leave(bob.as, team.id, "me"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await leave(bob.as, UNKNOWN_UUID, "me"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    // `me` with no signed-in user has its own error; another user's id needs a signed-in user.
    expectKnownError(await leave(project.client, team.id, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await leave(project.client, team.id, bob.userId), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("a server removes anyone: the user, then the team, then the membership must exist", async () => {
    const team = await createTeam(server, project.server);
    await addMember(server, project, team.id, alice.userId);
    expectKnownError(await leave(project.server, team.id, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await leave(project.server, team.id, stranger.userId), "USER_NOT_FOUND", 404);
    expectKnownError(await leave(project.server, UNKNOWN_UUID, alice.userId), "TEAM_NOT_FOUND", 404);
    expectKnownError(await leave(project.server, team.id, bob.userId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await leave(project.server, team.id, alice.userId)).status).toBe(200);
    expect(await memberCount(server, team.id)).toBe(0);
    expectKnownError(await leave(project.server, team.id, alice.userId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });
});

describe("member profiles", () => {
  let team: { id: string };
  beforeAll(async () => {
    team = await createTeam(server, alice.as, { display_name: "Profiles" });
    await addMember(server, project, team.id, bob.userId);
  });

  it("a client lists a team's profiles by join time; the server view adds the user", async () => {
    const asClient = await profiles(alice.as, { team_id: team.id });
    expect(asClient.status, asClient.text).toBe(200);
    expect(asClient.body.items.map((p: any) => p.user_id)).toEqual([alice.userId, bob.userId]);
    expect(Object.keys(asClient.body.items[0]).sort()).toEqual(CLIENT_PROFILE_KEYS);
    expect(asClient.body.items[0]).toEqual({
      display_name: "Alice",
      profile_image_url: "https://example.com/Alice.png",
      team_id: team.id,
      user_id: alice.userId,
    });

    const asServer = await profiles(project.server, { team_id: team.id });
    expect(asServer.body.items.map((p: any) => p.user_id)).toEqual([alice.userId, bob.userId]);
    const user = await server.request(`/users/${bob.userId}`, { as: project.server });
    expect(asServer.body.items[1].user).toEqual(user.body);
  });

  it("filters by user (a member's profiles in all their teams), or lists the project's", async () => {
    const mine = await profiles(project.server, { user_id: bob.userId });
    expect(mine.body.items.every((p: any) => p.user_id === bob.userId)).toBe(true);
    expect(mine.body.items.map((p: any) => p.team_id)).toContain(team.id);
    const one = await profiles(project.server, { team_id: team.id, user_id: bob.userId });
    expect(one.body.items.map((p: any) => [p.team_id, p.user_id])).toEqual([[team.id, bob.userId]]);
    const all = await profiles(project.server);
    expect(all.body.items.length).toBeGreaterThanOrEqual(2);
    expect(all.body.items.every((p: any) => p.user_id !== stranger.userId)).toBe(true);
    const mineAsClient = await profiles(bob.as, { team_id: team.id, user_id: "me" });
    expect(mineAsClient.body.items.map((p: any) => p.user_id)).toEqual([bob.userId]);
  });

  it("list failures: a client without team_id, unknown team or user, a client not in the team", async () => {
    expectPlainError(await profiles(alice.as), 400, /^team_id is required for access type client$/);
    expectPlainError(await profiles(alice.as, { user_id: "me" }), 400, /team_id is required/);
    expectKnownError(await profiles(project.server, { team_id: UNKNOWN_UUID }), "TEAM_NOT_FOUND", 404);
    expectKnownError(await profiles(project.server, { user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    expectKnownError(await profiles(project.server, { user_id: stranger.userId }), "USER_NOT_FOUND", 404);
    expectKnownError(await profiles(stranger.as, { team_id: team.id, user_id: "me" }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const outsider = await signUpUser(server, project);
    expectKnownError(await profiles(outsider.as, { team_id: team.id, user_id: "me" }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await profiles(outsider.as, { team_id: team.id }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await profiles(alice.as, { team_id: team.id, user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    expectSchemaError(await profiles(project.server, { team_id: "nope" }), "GET", "/team-member-profiles", [
      "query.team_id must be a valid UUID",
    ]);
  });

  it("reads one profile; the target must be a member", async () => {
    const own = await profile(bob.as, team.id, "me");
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ user_id: bob.userId, display_name: "Bob" });
    const other = await profile(alice.as, team.id, bob.userId);
    expect(other.body.user_id).toBe(bob.userId);
    const asServer = await profile(project.server, team.id, bob.userId);
    expect(asServer.body.user.id).toBe(bob.userId);

    const outsider = await signUpUser(server, project);
    expectKnownError(await profile(alice.as, team.id, outsider.userId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await profile(outsider.as, team.id, "me"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await profile(project.server, team.id, outsider.userId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await profile(project.server, UNKNOWN_UUID, bob.userId), "TEAM_NOT_FOUND", 404);
    expectKnownError(await profile(project.server, team.id, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await profile(project.client, team.id, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await profile(project.client, team.id, bob.userId), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("a member edits their own profile, which then lives apart from the user's", async () => {
    const res = await patchProfile(bob.as, team.id, "me", { display_name: "Bobby in Profiles", profile_image_url: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ display_name: "Bobby in Profiles", profile_image_url: null, team_id: team.id, user_id: bob.userId });
    expect((await me(bob.as)).display_name).toBe("Bob");
    await server.request("/users/me", { method: "PATCH", as: bob.as, body: { display_name: "Robert" } });
    expect((await profile(bob.as, team.id, "me")).body.display_name).toBe("Bobby in Profiles");
    const other = await createTeam(server, project.server);
    await addMember(server, project, other.id, bob.userId);
    expect((await profile(bob.as, other.id, "me")).body.display_name).toBe("Robert");
    const unchanged = await patchProfile(bob.as, team.id, bob.userId, {});
    expect(unchanged.body.display_name).toBe("Bobby in Profiles");
  });

  it("a server edits anyone's profile and sees the user", async () => {
    const res = await patchProfile(project.server, team.id, alice.userId, { display_name: "Boss" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.display_name).toBe("Boss");
    expect(res.body.user.id).toBe(alice.userId);
  });

  it("update failures: a client editing another's profile, non-members, unknown ids, bad fields", async () => {
    expectPlainError(
      await patchProfile(alice.as, team.id, bob.userId, { display_name: "X" }),
      403,
      /^Client can only update its own team member profile$/,
    );
    const outsider = await signUpUser(server, project);
    expectKnownError(await patchProfile(outsider.as, team.id, "me", { display_name: "X" }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await patchProfile(project.server, team.id, outsider.userId, { display_name: "X" }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await patchProfile(project.server, UNKNOWN_UUID, bob.userId, {}), "TEAM_NOT_FOUND", 404);
    expectKnownError(await patchProfile(project.server, team.id, UNKNOWN_UUID, {}), "USER_NOT_FOUND", 404);
    expectKnownError(await patchProfile(project.client, team.id, "me", {}), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expect((await patchProfile(bob.as, team.id, "me", { profile_image_url: "not a url" })).body.code).toBe("SCHEMA_ERROR");
    expect((await patchProfile(bob.as, team.id, "me", { team_id: team.id })).body.code).toBe("SCHEMA_ERROR");
    expect((await profile(project.server, team.id, bob.userId)).body.display_name).toBe("Bobby in Profiles");
  });
});
