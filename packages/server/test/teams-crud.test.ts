/**
 * Teams: creating (client and server), listing (a client only its own, from
 * the caches when it can), reading, updating and deleting, with their
 * failure cases; and the personal team every new user gets when the project
 * asks for one.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { teamMembers, teamPermissionGrants, users, verificationCodes } from "../src/db/schema/index.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  patchProjectConfig,
  signUpUser,
  uniqueEmail,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { authHeaders, createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { addMember, createTeam, createTeamsProject, grantsOf, memberCount } from "./team-fixtures.ts";

const CLIENT_TEAM_KEYS = ["client_metadata", "client_read_only_metadata", "display_name", "id", "profile_image_url"];
const SERVER_TEAM_KEYS = [...CLIENT_TEAM_KEYS, "created_at_millis", "server_metadata"].sort();

let server: TestServer;
let project: Project;
let otherProject: Project;
let alice: EndUser;
let bob: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  [project, otherProject] = await Promise.all([createTeamsProject(server, { create_team_on_sign_up: true }), createTeamsProject(server)]);
  [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
});
afterAll(() => server?.close());

const db = () => server.instance.services.db;
const post = (as: Auth, body: unknown) => server.request("/teams", { method: "POST", as, body });
const list = (as: Auth, query?: Record<string, string>) => server.request("/teams", { as, query });
const get = (as: Auth, id: string) => server.request(`/teams/${id}`, { as });
const patch = (as: Auth, id: string, body: unknown) => server.request(`/teams/${id}`, { method: "PATCH", as, body });
const remove = (as: Auth, id: string) => server.request(`/teams/${id}`, { method: "DELETE", as });

async function me(as: Auth) {
  const res = await server.request("/users/me", { as });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /teams", () => {
  it("a client creates a team as its creator, with the team-creator defaults, and keeps its selected team", async () => {
    const before = await me(alice.as);
    const res = await post(alice.as, { display_name: "Alpha", client_metadata: { a: 1 } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CLIENT_TEAM_KEYS);
    expect(res.body).toMatchObject({
      display_name: "Alpha",
      client_metadata: { a: 1 },
      client_read_only_metadata: null,
      profile_image_url: null,
    });
    expect(await grantsOf(server, res.body.id, alice.userId)).toEqual(["team_admin"]);
    const after = await me(alice.as);
    expect(after.selected_team_id).toBe(before.selected_team_id);
    expect(after.selected_team_id).not.toBe(res.body.id);
  });

  it("a client may name itself as creator, by me or by id", async () => {
    for (const creator of ["me", alice.userId]) {
      const res = await post(alice.as, { display_name: `By ${creator}`, creator_user_id: creator });
      expect(res.status, res.text).toBe(201);
      expect(await grantsOf(server, res.body.id, alice.userId)).toEqual(["team_admin"]);
    }
  });

  it("a client may not create a team for another user (403 plain text)", async () => {
    expectPlainError(await post(alice.as, { display_name: "X", creator_user_id: bob.userId }), 403);
  });

  it("a client needs a signed-in user", async () => {
    expectKnownError(await post(project.client, { display_name: "X" }), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("a client needs client_team_creation_enabled (403 plain text)", async () => {
    const closed = await createProject(server);
    const user = await signUpUser(server, closed);
    expectPlainError(await post(user.as, { display_name: "X" }), 403, /client_team_creation_enabled/);
    await patchProjectConfig(server, closed, { client_team_creation_enabled: true });
    expect((await post(user.as, { display_name: "X" })).status).toBe(201);
  });

  it("a client may not set server-only fields", async () => {
    expectSchemaError(await post(alice.as, { display_name: "X", server_metadata: {} }), "POST", "/teams", [
      "body contains unknown properties: server_metadata",
    ]);
  });

  it("refuses a missing name and a bad image URL; an empty name is fine", async () => {
    expectSchemaError(await post(project.server, {}), "POST", "/teams", ["body.display_name must be defined"]);
    const unnamed = await post(project.server, { display_name: "" });
    expect(unnamed.status, unnamed.text).toBe(201);
    expect(unnamed.body.display_name).toBe("");
    expect((await post(project.server, { display_name: "x".repeat(257) })).body.code).toBe("SCHEMA_ERROR");
    expect((await post(project.server, { display_name: "X", profile_image_url: "not a url" })).body.code).toBe("SCHEMA_ERROR");
    expect((await post(project.server, { display_name: "X", creator_user_id: "nope" })).body.code).toBe("SCHEMA_ERROR");
  });

  it("a server creates a team with no members unless it names a creator", async () => {
    const res = await post(project.server, {
      display_name: "Server team",
      client_read_only_metadata: { plan: "pro" },
      server_metadata: { secret: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(SERVER_TEAM_KEYS);
    expect(res.body).toMatchObject({ client_read_only_metadata: { plan: "pro" }, server_metadata: { secret: true } });
    expect(await memberCount(server, res.body.id)).toBe(0);

    const withCreator = await post(project.server, { display_name: "For Bob", creator_user_id: bob.userId });
    expect(withCreator.status).toBe(201);
    expect(await grantsOf(server, withCreator.body.id, bob.userId)).toEqual(["team_admin"]);
    expect((await me(bob.as)).selected_team_id).not.toBe(withCreator.body.id);
  });

  it("a server naming an unknown creator, or one of another project, gets USER_NOT_FOUND and creates nothing", async () => {
    const stranger = await signUpUser(server, otherProject);
    const before = (await list(project.server)).body.items.length;
    expectKnownError(await post(project.server, { display_name: "X", creator_user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    expectKnownError(await post(project.server, { display_name: "X", creator_user_id: stranger.userId }), "USER_NOT_FOUND", 404);
    expect((await list(project.server)).body.items.length).toBe(before);
  });

  it("a server without a user cannot name me", async () => {
    expectKnownError(await post(project.server, { display_name: "X", creator_user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });
});

describe("GET /teams", () => {
  let carol: EndUser;
  const names: string[] = [];
  beforeAll(async () => {
    carol = await signUpUser(server, project);
    names.push((await me(carol.as)).selected_team.display_name);
    for (const name of ["C1", "C2", "C3"]) {
      await post(carol.as, { display_name: name });
      names.push(name);
    }
  });

  it("a client lists its own teams, oldest first, by me or by its id", async () => {
    for (const userId of ["me", carol.userId]) {
      const res = await list(carol.as, { user_id: userId });
      expect(res.status, res.text).toBe(200);
      expect(res.body.is_paginated).toBe(false);
      expect(res.body.items.map((t: any) => t.display_name)).toEqual(names);
      expect(Object.keys(res.body.items[0]).sort()).toEqual(CLIENT_TEAM_KEYS);
    }
  });

  it("a client must name itself (403 plain text), and needs a user for me", async () => {
    expectPlainError(await list(carol.as), 403, /user_id=me/);
    expectPlainError(await list(carol.as, { user_id: bob.userId }), 403, /user_id=me/);
    expectPlainError(await list(project.client, { user_id: bob.userId }), 403, /user_id=me/);
    expectKnownError(await list(project.client, { user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectSchemaError(await list(carol.as, { user_id: "nope" }), "GET", "/teams", ["query.user_id must be a valid UUID"]);
  });

  it("a server lists one user's teams, or all of the project's (and only its)", async () => {
    const mine = await list(project.server, { user_id: carol.userId });
    expect(mine.body.items.map((t: any) => t.display_name)).toEqual(names);
    expect(Object.keys(mine.body.items[0]).sort()).toEqual(SERVER_TEAM_KEYS);
    const foreign = await createTeam(server, otherProject.server, { display_name: "Elsewhere" });
    const all = (await list(project.server)).body.items;
    const ids = all.map((t: any) => t.id);
    expect(ids).not.toContain(foreign.id);
    expect(ids).toEqual(expect.arrayContaining(mine.body.items.map((t: any) => t.id)));
    const created = all.map((t: any) => t.created_at_millis);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expectKnownError(await list(project.server, { user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    expectKnownError(await list(otherProject.server, { user_id: carol.userId }), "USER_NOT_FOUND", 404);
  });

  it("follows joins, renames, leaves and deletions at once (the caches are told)", async () => {
    const team = await createTeam(server, project.server, { display_name: "Joined" });
    const namesOf = async () => (await list(carol.as, { user_id: "me" })).body.items.map((t: any) => t.display_name);
    await namesOf();
    await addMember(server, project, team.id, carol.userId);
    expect(await namesOf()).toContain("Joined");
    expect((await patch(project.server, team.id, { display_name: "Renamed" })).status).toBe(200);
    expect(await namesOf()).toContain("Renamed");
    expect((await server.request(`/team-memberships/${team.id}/me`, { method: "DELETE", as: carol.as })).status).toBe(200);
    expect(await namesOf()).not.toContain("Renamed");
    const doomed = await post(carol.as, { display_name: "Doomed" });
    expect(await namesOf()).toContain("Doomed");
    expect((await remove(project.server, doomed.body.id)).status).toBe(200);
    expect(await namesOf()).not.toContain("Doomed");
  });
});

describe("GET /teams?user_id=me from the caches", () => {
  let member: EndUser;
  const TEAMS = 50;
  beforeAll(async () => {
    member = await signUpUser(server, project);
    for (let i = 0; i < TEAMS; i++) await createTeam(server, project.server, { display_name: `T${i}`, creator_user_id: member.userId });
  });

  function fetchRaw(): Response | Promise<Response> {
    return server.instance.app.fetch(new Request("http://localhost/api/v1/teams?user_id=me", { headers: authHeaders(member.as) }));
  }

  /**
   * Sends twice once the caches have applied every write so far (on PostgreSQL this process also hears its own
   * writes' NOTIFY a moment later, which drops entries once more): the second answer must come at once.
   */
  async function synchronousOnceCached(expected: string) {
    await server.cachesCaughtUp();
    expect(await (await fetchRaw()).text()).toBe(expected);
    const res = fetchRaw();
    expect(res, "answered synchronously once cached").not.toBeInstanceOf(Promise);
    expect(await (await res).text()).toBe(expected);
  }

  it("is answered synchronously once cached, with the same answer", async () => {
    const loaded = await (await fetchRaw()).text();
    expect(JSON.parse(loaded).items).toHaveLength(TEAMS + 1);
    await synchronousOnceCached(loaded);
  });

  it("loads the missing team rows in one query, not one per team", async () => {
    await synchronousOnceCached(await (await fetchRaw()).text());
    server.instance.services.caches.teams.clear();
    const select = vi.spyOn(server.instance.services.db, "select");
    try {
      const res = await fetchRaw();
      expect(res.status).toBe(200);
      expect((await res.json()).items).toHaveLength(TEAMS + 1);
      expect(select).toHaveBeenCalledTimes(1);
    } finally {
      select.mockRestore();
    }
  });
});

describe("GET /teams/{team_id}", () => {
  it("a member reads its team; a server reads any of the project's", async () => {
    const team = await createTeam(server, alice.as, { display_name: "Readable" });
    const asClient = await get(alice.as, team.id);
    expect(asClient.status, asClient.text).toBe(200);
    expect(Object.keys(asClient.body).sort()).toEqual(CLIENT_TEAM_KEYS);
    const asServer = await get(project.server, team.id);
    expect(Object.keys(asServer.body).sort()).toEqual(SERVER_TEAM_KEYS);
    expect(asServer.body.display_name).toBe("Readable");
  });

  it("an unknown team: TEAM_NOT_FOUND for a server, TEAM_MEMBERSHIP_NOT_FOUND for a client", async () => {
    expectKnownError(await get(project.server, UNKNOWN_UUID), "TEAM_NOT_FOUND", 404);
    expectKnownError(await get(alice.as, UNKNOWN_UUID), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await get(project.client, UNKNOWN_UUID), "USER_AUTHENTICATION_REQUIRED", 401);
    expectSchemaError(await get(project.server, "nope"), "GET", "/teams/nope", ["params.team_id must be a valid UUID"]);
  });
});

describe("PATCH /teams/{team_id}", () => {
  it("a server sets every field; metadata can be cleared with null", async () => {
    const team = await createTeam(server, project.server);
    const res = await patch(project.server, team.id, {
      display_name: "New name",
      profile_image_url: "https://example.com/team.png",
      client_metadata: { c: 1 },
      client_read_only_metadata: { r: 2 },
      server_metadata: { s: 3 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      display_name: "New name",
      profile_image_url: "https://example.com/team.png",
      client_metadata: { c: 1 },
      client_read_only_metadata: { r: 2 },
      server_metadata: { s: 3 },
    });
    const cleared = await patch(project.server, team.id, { server_metadata: null, profile_image_url: null });
    expect(cleared.body).toMatchObject({ server_metadata: null, profile_image_url: null, client_metadata: { c: 1 } });
    const unchanged = await patch(project.server, team.id, {});
    expect(unchanged.body).toEqual(cleared.body);
  });

  it("a client with $update_team sets the client fields only", async () => {
    const team = await createTeam(server, alice.as);
    const res = await patch(alice.as, team.id, { display_name: "By client", client_metadata: { x: true } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(CLIENT_TEAM_KEYS);
    expect(res.body).toMatchObject({ display_name: "By client", client_metadata: { x: true } });
    expectSchemaError(await patch(alice.as, team.id, { client_read_only_metadata: {} }), "PATCH", `/teams/${team.id}`, [
      "body contains unknown properties: client_read_only_metadata",
    ]);
  });

  it("a renamed selected team shows in the user's own view at once", async () => {
    const selected = (await me(alice.as)).selected_team_id as string;
    expect((await patch(project.server, selected, { display_name: "Alice HQ" })).status).toBe(200);
    expect((await me(alice.as)).selected_team.display_name).toBe("Alice HQ");
  });

  it("refuses an unknown team and another project's team", async () => {
    const foreign = await createTeam(server, otherProject.server);
    expectKnownError(await patch(project.server, UNKNOWN_UUID, { display_name: "X" }), "TEAM_NOT_FOUND", 404);
    expectKnownError(await patch(project.server, foreign.id, { display_name: "X" }), "TEAM_NOT_FOUND", 404);
    expectKnownError(await patch(project.server, foreign.id, {}), "TEAM_NOT_FOUND", 404);
    expect((await get(otherProject.server, foreign.id)).body.display_name).toBe("A team");
    expectKnownError(await patch(project.server, foreign.id, { display_name: "" }), "TEAM_NOT_FOUND", 404);
    const own = await createTeam(server, project.server);
    const emptied = await patch(project.server, own.id, { display_name: "" });
    expect(emptied.status, emptied.text).toBe(200);
    expect(emptied.body.display_name).toBe("");
  });
});

describe("DELETE /teams/{team_id}", () => {
  async function insertInvitation(teamId: string, projectId = project.id) {
    const [row] = await db()
      .insert(verificationCodes)
      .values({
        projectId,
        purpose: "team_invitation",
        codeHash: `hash-${Math.random()}`,
        nonceHash: `nonce-${Math.random()}`,
        data: { team_id: teamId, email: "invited@example.com" },
        expiresAt: new Date(Date.now() + 3600_000),
      })
      .returning({ id: verificationCodes.id });
    return row!.id;
  }

  it("refuses to delete an owners' team that still owns a project, and leaves it whole", async () => {
    // project.owner's personal team on the internal project owns `project`; its creator holds $delete_team.
    const owner = { ...server.internal.client, accessToken: project.owner.accessToken };
    const refused = await server.request(`/teams/${project.owner.teamId}`, { method: "DELETE", as: owner });
    expectPlainError(refused, 400, /owns projects/);
    const still = await server.request(`/teams/${project.owner.teamId}`, { as: owner });
    expect(still.status, still.text).toBe(200);
    const admin = await server.request("/internal/projects/current", { as: project.ownerAdmin });
    expect(admin.status, admin.text).toBe(200);
  });

  it("removes memberships, profiles, grants and pending invitations, and unselects it, in one go", async () => {
    const dave = await signUpUser(server, project);
    const team = await createTeam(server, alice.as, { display_name: "Going away" });
    const survivor = await createTeam(server, alice.as, { display_name: "Staying" });
    await addMember(server, project, team.id, dave.userId);
    await addMember(server, project, survivor.id, dave.userId);
    const invitation = await insertInvitation(team.id);
    const otherInvitation = await insertInvitation(survivor.id);
    for (const user of [alice, dave]) {
      const selected = await server.request("/users/me", { method: "PATCH", as: user.as, body: { selected_team_id: team.id } });
      expect(selected.status, selected.text).toBe(200);
      expect((await me(user.as)).selected_team.display_name).toBe("Going away");
    }
    expect((await list(dave.as, { user_id: "me" })).body.items.map((t: any) => t.id)).toContain(team.id);

    const res = await remove(alice.as, team.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });

    const where = eq(teamMembers.teamId, team.id);
    expect(await db().select().from(teamMembers).where(where)).toEqual([]);
    expect(await db().select().from(teamPermissionGrants).where(eq(teamPermissionGrants.teamId, team.id))).toEqual([]);
    const codes = await db().select({ id: verificationCodes.id }).from(verificationCodes);
    expect(codes.map((c) => c.id)).not.toContain(invitation);
    expect(codes.map((c) => c.id)).toContain(otherInvitation);
    const selected = await db()
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.selectedTeamId} = ${team.id}`);
    expect(selected).toEqual([]);
    for (const user of [alice, dave]) {
      const view = await me(user.as);
      expect(view.selected_team_id).toBeNull();
      expect(view.selected_team).toBeNull();
      const teams = (await list(user.as, { user_id: "me" })).body.items.map((t: any) => t.id);
      expect(teams).not.toContain(team.id);
      expect(teams).toContain(survivor.id);
    }
    expect(await grantsOf(server, survivor.id, alice.userId)).toEqual(["team_admin"]);
    expectKnownError(await get(project.server, team.id), "TEAM_NOT_FOUND", 404);
    expectKnownError(await remove(project.server, team.id), "TEAM_NOT_FOUND", 404);
  });

  it("refuses another project's team and leaves it whole", async () => {
    const foreign = await createTeam(server, otherProject.server);
    const invitation = await insertInvitation(foreign.id, otherProject.id);
    expectKnownError(await remove(project.server, foreign.id), "TEAM_NOT_FOUND", 404);
    expectKnownError(await remove(project.admin, foreign.id), "TEAM_NOT_FOUND", 404);
    expect((await get(otherProject.server, foreign.id)).status).toBe(200);
    const codes = await db().select({ id: verificationCodes.id }).from(verificationCodes).where(eq(verificationCodes.id, invitation));
    expect(codes).toHaveLength(1);
  });
});

describe("personal teams on sign-up", () => {
  async function personalTeamOf(res: { status: number; text: string; body: { user_id: string } }) {
    expect(res.status, res.text).toBe(200);
    const teams = await list(project.server, { user_id: res.body.user_id });
    expect(teams.body.items).toHaveLength(1);
    const user = await server.request(`/users/${res.body.user_id}?include_anonymous=true`, { as: project.server });
    expect(user.body.selected_team_id).toBe(teams.body.items[0].id);
    expect(await grantsOf(server, teams.body.items[0].id, res.body.user_id)).toEqual(["team_admin"]);
    return user.body.selected_team.display_name as string;
  }

  it("is named after the primary e-mail, else 'Personal Team' (the display name case: OAuth sign-up)", async () => {
    const email = uniqueEmail("frank");
    const password = { email, password: "correct horse battery staple" };
    const signedUp = await server.request("/auth/password/sign-up", { method: "POST", as: project.client, body: password });
    expect(await personalTeamOf(signedUp)).toBe(`${email}'s Team`);
    const anonymous = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(await personalTeamOf(anonymous)).toBe("Personal Team");
  });

  it("is not made for a user a server creates", async () => {
    const res = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { display_name: "Erin", primary_email: uniqueEmail("erin") },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ selected_team: null, selected_team_id: null });
    expect((await list(project.server, { user_id: res.body.id })).body.items).toEqual([]);
  });

  it("is renamed when an anonymous user signs up, unless it was renamed before", async () => {
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(anon.status, anon.text).toBe(200);
    const as = { ...project.client, accessToken: anon.body.access_token, allowAnonymous: true };
    expect((await me(as)).selected_team.display_name).toBe("Personal Team");
    const upgraded = await server.request("/auth/password/sign-up", {
      method: "POST",
      as,
      body: { email: "upgraded@example.com", password: "correct horse battery staple" },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.body.user_id).toBe(anon.body.user_id);
    const after = await me({ ...project.client, accessToken: upgraded.body.access_token });
    expect(after.selected_team.display_name).toBe("upgraded@example.com's Team");

    const anon2 = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    const as2 = { ...project.client, accessToken: anon2.body.access_token, allowAnonymous: true };
    const teamId = (await me(as2)).selected_team_id as string;
    expect((await patch(project.server, teamId, { display_name: "Chosen name" })).status).toBe(200);
    const upgraded2 = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: as2,
      body: { email: "upgraded2@example.com", password: "correct horse battery staple" },
    });
    expect(upgraded2.status, upgraded2.text).toBe(200);
    expect((await get(project.server, teamId)).body.display_name).toBe("Chosen name");
  });

  it("is not made when the project does not ask for it", async () => {
    const user = await signUpUser(server, otherProject);
    expect((await list(otherProject.server, { user_id: user.userId })).body.items).toEqual([]);
    expect((await me(user.as)).selected_team).toBeNull();
  });
});
