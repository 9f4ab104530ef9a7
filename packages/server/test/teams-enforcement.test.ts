/**
 * The enforcement matrix of the team endpoints a client may call: for each,
 * a non-member is refused (TEAM_MEMBERSHIP_NOT_FOUND), a member without the
 * permission is refused (TEAM_PERMISSION_REQUIRED, naming it), and a member
 * holding it directly, or through a chain of containing permissions, is let
 * through. Then: nothing a project's keys or users do reaches a team of
 * another project.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";
import { addMember, createTeam, createTeamsProject, defineTeamPermission, grantTeamPermission, memberCount } from "./team-fixtures.ts";

let server: TestServer;
let project: Project;
let outsider: EndUser;
let plain: EndUser;
let direct: EndUser;
let contained: EndUser;
let victim: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  // Members join with no permission at all, so each test grants exactly what it means.
  project = await createTeamsProject(server, { team_member_default_permissions: [] });
  const signUp = () => signUpUser(server, project);
  [outsider, plain, direct, contained, victim] = await Promise.all([signUp(), signUp(), signUp(), signUp(), signUp()]);
  // lead → manager → the system permissions: held two containments deep.
  await defineTeamPermission(server, project.id, "manager", ["$delete_team", "$read_members", "$remove_members", "$update_team"]);
  await defineTeamPermission(server, project.id, "lead", ["manager"]);
  // What the plain member holds: permissions, but none of the ones the endpoints need.
  await defineTeamPermission(server, project.id, "bystander", ["$manage_api_keys"]);
});
afterAll(() => server?.close());

interface Case {
  name: string;
  permission: string | null;
  /** The request as `as`, in team `teamId`, acting on member `other` where it names one. */
  send: (as: Auth, teamId: string, other: string) => Promise<TestResponse>;
  allowedStatus: number;
}

const CASES: Case[] = [
  {
    name: "GET /teams/{team_id}",
    permission: null,
    send: (as, teamId) => server.request(`/teams/${teamId}`, { as }),
    allowedStatus: 200,
  },
  {
    name: "PATCH /teams/{team_id}",
    permission: "$update_team",
    send: (as, teamId) => server.request(`/teams/${teamId}`, { method: "PATCH", as, body: { display_name: "Changed" } }),
    allowedStatus: 200,
  },
  {
    name: "DELETE /teams/{team_id}",
    permission: "$delete_team",
    send: (as, teamId) => server.request(`/teams/${teamId}`, { method: "DELETE", as }),
    allowedStatus: 200,
  },
  {
    name: "DELETE /team-memberships/{team_id}/{other}",
    permission: "$remove_members",
    send: (as, teamId, other) => server.request(`/team-memberships/${teamId}/${other}`, { method: "DELETE", as }),
    allowedStatus: 200,
  },
  {
    name: "GET /team-member-profiles?team_id",
    permission: "$read_members",
    send: (as, teamId) => server.request("/team-member-profiles", { as, query: { team_id: teamId } }),
    allowedStatus: 200,
  },
  {
    name: "GET /team-member-profiles?team_id&user_id={other}",
    permission: "$read_members",
    send: (as, teamId, other) => server.request("/team-member-profiles", { as, query: { team_id: teamId, user_id: other } }),
    allowedStatus: 200,
  },
  {
    name: "GET /team-member-profiles/{team_id}/{other}",
    permission: "$read_members",
    send: (as, teamId, other) => server.request(`/team-member-profiles/${teamId}/${other}`, { as }),
    allowedStatus: 200,
  },
];

/** A team whose members are plain (only unrelated permissions), direct (the permission itself), contained (`lead`) and the victim. */
async function teamFor(permission: string | null): Promise<string> {
  const team = await createTeam(server, project.server, { display_name: "Guarded" });
  for (const user of [plain, direct, contained, victim]) await addMember(server, project, team.id, user.userId);
  await grantTeamPermission(server, project.id, team.id, plain.userId, "$invite_members");
  await grantTeamPermission(server, project.id, team.id, plain.userId, "bystander");
  if (permission) {
    await grantTeamPermission(server, project.id, team.id, direct.userId, permission);
    await grantTeamPermission(server, project.id, team.id, contained.userId, "lead");
  }
  return team.id;
}

describe.each(CASES)("$name", ({ permission, send, allowedStatus }) => {
  it("refuses a non-member with TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const teamId = await teamFor(permission);
    const res = await send(outsider.as, teamId, victim.userId);
    expectKnownError(res, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(res.body.details).toEqual({ team_id: teamId, user_id: outsider.userId });
    expect(await memberCount(server, teamId)).toBe(4);
  });

  it("refuses a client with no user", async () => {
    const teamId = await teamFor(permission);
    expectKnownError(await send(project.client, teamId, victim.userId), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  if (permission) {
    it(`refuses a member without ${permission} with TEAM_PERMISSION_REQUIRED`, async () => {
      const teamId = await teamFor(permission);
      const res = await send(plain.as, teamId, victim.userId);
      expectKnownError(res, "TEAM_PERMISSION_REQUIRED", 401);
      expect(res.body.details).toEqual({ team_id: teamId, user_id: plain.userId, permission_id: permission });
      expect(await memberCount(server, teamId)).toBe(4);
      expect((await server.request(`/teams/${teamId}`, { as: project.server })).body.display_name).toBe("Guarded");
    });

    it(`refuses a member whose permission is in another team`, async () => {
      const teamId = await teamFor(permission);
      const elsewhere = await teamFor(null);
      await grantTeamPermission(server, project.id, elsewhere, plain.userId, "lead");
      expectKnownError(await send(plain.as, teamId, victim.userId), "TEAM_PERMISSION_REQUIRED", 401);
    });
  }

  it(permission ? `allows a member granted ${permission} directly` : "allows any member", async () => {
    const teamId = await teamFor(permission);
    const res = await send(direct.as, teamId, victim.userId);
    expect(res.status, res.text).toBe(allowedStatus);
  });

  if (permission) {
    it(`allows a member holding ${permission} through lead → manager`, async () => {
      const teamId = await teamFor(permission);
      const res = await send(contained.as, teamId, victim.userId);
      expect(res.status, res.text).toBe(allowedStatus);
    });

    it("a grant taken away takes the access with it", async () => {
      const teamId = await teamFor(permission);
      const revoked = await server.request(`/team-memberships/${teamId}/${contained.userId}`, { method: "DELETE", as: project.server });
      expect(revoked.status).toBe(200);
      await addMember(server, project, teamId, contained.userId);
      expectKnownError(await send(contained.as, teamId, victim.userId), "TEAM_PERMISSION_REQUIRED", 401);
    });
  }
});

describe("own-user exceptions", () => {
  it("a member reads and lists its own profile, and leaves, without any permission", async () => {
    const teamId = await teamFor(null);
    expect((await server.request(`/team-member-profiles/${teamId}/me`, { as: plain.as })).status).toBe(200);
    const listed = await server.request("/team-member-profiles", { as: plain.as, query: { team_id: teamId, user_id: plain.userId } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((p: any) => p.user_id)).toEqual([plain.userId]);
    expect((await server.request(`/team-memberships/${teamId}/${plain.userId}`, { method: "DELETE", as: plain.as })).status).toBe(200);
    expect(await memberCount(server, teamId)).toBe(3);
  });
});

describe("ids in upper case", () => {
  it("name the same team and user: a revocation or removal made in one case is seen in the other at once", async () => {
    const team = await createTeam(server, project.server);
    await addMember(server, project, team.id, plain.userId);
    await grantTeamPermission(server, project.id, team.id, plain.userId, "$update_team");
    const upper = team.id.toUpperCase();
    const rename = (teamId: string) =>
      server.request(`/teams/${teamId}`, { method: "PATCH", as: plain.as, body: { display_name: "Renamed" } });
    // Cached under whatever spelling the client used first…
    expect((await rename(upper)).status).toBe(200);
    expect((await rename(team.id)).status).toBe(200);
    // …and dropped by a revocation that spells the ids the other way.
    const revoked = await server.request(`/team-permissions/${upper}/${plain.userId.toUpperCase()}/$update_team`, {
      method: "DELETE",
      as: project.server,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expectKnownError(await rename(upper), "TEAM_PERMISSION_REQUIRED", 401);
    expectKnownError(await rename(team.id), "TEAM_PERMISSION_REQUIRED", 401);
    const removed = await server.request(`/team-memberships/${upper}/${plain.userId}`, { method: "DELETE", as: project.server });
    expect(removed.status, removed.text).toBe(200);
    const read = await server.request(`/teams/${upper}`, { as: plain.as });
    expectKnownError(read, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    // Answers name ids as the database keeps them: lower case.
    expect(read.body.details).toEqual({ team_id: team.id, user_id: plain.userId });
  });
});

describe("a user of project A and a team of project B", () => {
  let projectB: Project;
  let teamB: string;
  let memberB: EndUser;
  let teamA: string;

  beforeAll(async () => {
    projectB = await createTeamsProject(server);
    memberB = await signUpUser(server, projectB);
    teamB = (await createTeam(server, memberB.as, { display_name: "B's team" })).id;
    // Even an all-powerful member of A gains nothing in B.
    teamA = (await createTeam(server, direct.as, { display_name: "A's team" })).id;
    await grantTeamPermission(server, project.id, teamA, direct.userId, "lead");
  });

  async function expectTeamBUntouched() {
    const team = await server.request(`/teams/${teamB}`, { as: projectB.server });
    expect(team.body.display_name).toBe("B's team");
    expect(await memberCount(server, teamB)).toBe(1);
  }

  it("A's client user can do nothing to B's team: TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const as = direct.as;
    const refused = [
      await server.request(`/teams/${teamB}`, { as }),
      await server.request(`/teams/${teamB}`, { method: "PATCH", as, body: { display_name: "Taken" } }),
      await server.request(`/teams/${teamB}`, { method: "DELETE", as }),
      await server.request(`/team-memberships/${teamB}/${memberB.userId}`, { method: "DELETE", as }),
      await server.request(`/team-memberships/${teamB}/me`, { method: "DELETE", as }),
      await server.request("/team-member-profiles", { as, query: { team_id: teamB } }),
      await server.request("/team-member-profiles", { as, query: { team_id: teamB, user_id: "me" } }),
      await server.request(`/team-member-profiles/${teamB}/${memberB.userId}`, { as }),
      await server.request(`/team-member-profiles/${teamB}/me`, { as }),
      await server.request(`/team-member-profiles/${teamB}/me`, { method: "PATCH", as, body: { display_name: "X" } }),
    ];
    for (const res of refused) expectKnownError(res, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await server.request("/teams", { as, query: { user_id: "me" } })).body.items.map((t: any) => t.id)).not.toContain(teamB);
    await expectTeamBUntouched();
  });

  it("A's server and admin keys can do nothing to B's team: TEAM_NOT_FOUND, or USER_NOT_FOUND for B's users", async () => {
    for (const as of [project.server, project.admin]) {
      const teamNotFound = [
        await server.request(`/teams/${teamB}`, { as }),
        await server.request(`/teams/${teamB}`, { method: "PATCH", as, body: { display_name: "Taken" } }),
        await server.request(`/teams/${teamB}`, { method: "DELETE", as }),
        await server.request(`/team-memberships/${teamB}/${direct.userId}`, { method: "POST", as, body: {} }),
        await server.request(`/team-memberships/${teamB}/${direct.userId}`, { method: "DELETE", as }),
        await server.request("/team-member-profiles", { as, query: { team_id: teamB } }),
        await server.request(`/team-member-profiles/${teamB}/${direct.userId}`, { as }),
        await server.request(`/team-member-profiles/${teamB}/${direct.userId}`, { method: "PATCH", as, body: { display_name: "X" } }),
      ];
      for (const res of teamNotFound) expectKnownError(res, "TEAM_NOT_FOUND", 404);
      const userNotFound = [
        await server.request(`/team-memberships/${teamA}/${memberB.userId}`, { method: "POST", as, body: {} }),
        await server.request(`/team-memberships/${teamB}/${memberB.userId}`, { method: "DELETE", as }),
        await server.request("/team-member-profiles", { as, query: { user_id: memberB.userId } }),
        await server.request(`/team-member-profiles/${teamB}/${memberB.userId}`, { as }),
        await server.request("/teams", { as, query: { user_id: memberB.userId } }),
      ];
      for (const res of userNotFound) expectKnownError(res, "USER_NOT_FOUND", 404);
      const all = await server.request("/teams", { as });
      expect(all.body.items.map((t: any) => t.id)).not.toContain(teamB);
      const profiles = await server.request("/team-member-profiles", { as });
      expect(profiles.body.items.map((p: any) => p.team_id)).not.toContain(teamB);
    }
    await expectTeamBUntouched();
  });
});
