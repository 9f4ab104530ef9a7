/**
 * Teams through the SDK against a real server: the signed-in user's teams
 * (create, list, select, leave, profile), team objects (update, delete,
 * members), and the server app's teams; subscribed cache entries follow the
 * SDK's own writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, ServerTeam, StackServerApp, Team } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject, startServerWithProject } from "./fixtures.ts";
import { nextSnapshot, PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject({ clientTeamCreationEnabled: true })));
afterAll(() => server?.close());

async function signedUp(of: Pick<SdkProject, "id" | "publishableClientKey"> = project) {
  const app = clientAppOf(baseUrl, of);
  const email = uniqueEmail("teams");
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

function serverApp(of: SdkProject = project) {
  return new StackServerApp({ baseUrl, projectId: of.id, secretServerKey: of.secretServerKey });
}

describe("the signed-in user's teams", () => {
  it("creates a team, selects it, lists it, and holds the team-creator permissions in it", async () => {
    const { app, user } = await signedUp();
    const personal = user.selectedTeam;
    const created = await user.createTeam({ displayName: "Crew" });
    expect(created).toBeInstanceOf(Team);
    expect(created).toMatchObject({ displayName: "Crew", profileImageUrl: null, clientMetadata: null, clientReadOnlyMetadata: null });

    const again = await app.getUser({ or: "throw" });
    expect(again.selectedTeam?.id).toBe(created.id);
    expect(again.selectedTeam?.displayName).toBe("Crew");
    expect((await again.listTeams()).map((t) => t.id).sort()).toEqual([personal?.id, created.id].filter(Boolean).sort());
    expect((await again.getTeam(created.id))?.displayName).toBe("Crew");
    expect(await again.getTeam(crypto.randomUUID())).toBeNull();
    for (const id of ["$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members"]) {
      expect(await again.hasPermission(created, id)).toBe(true);
    }
  });

  it("selects another team or none", async () => {
    const { app, user } = await signedUp();
    const crew = await user.createTeam({ displayName: "Crew" });
    const other = await user.createTeam({ displayName: "Other" });
    await (await app.getUser({ or: "throw" })).setSelectedTeam(crew);
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).toBe(crew.id);
    await (await app.getUser({ or: "throw" })).setSelectedTeam(null);
    expect((await app.getUser({ or: "throw" })).selectedTeam).toBeNull();
    expect((await user.listTeams()).map((t) => t.displayName)).toEqual(expect.arrayContaining(["Crew", "Other"]));
    expect(other.id).not.toBe(crew.id);
  });

  it("leaves a team: it is no longer listed nor selected, and a subscribed list follows", async () => {
    const { app, user } = await signedUp();
    const crew = await user.createTeam({ displayName: "Crew" });
    const entry = user._teamsEntry();
    expect((await user.listTeams()).some((t) => t.id === crew.id)).toBe(true);
    const gone = nextSnapshot(entry, (s) => s.status === "ok" && !s.value.some((t) => t.id === crew.id));
    await user.leaveTeam(crew);
    await gone.seen;
    gone.unsubscribe();
    expect(await user.getTeam(crew.id)).toBeNull();
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).not.toBe(crew.id);
  });

  it("refuses client creation when the project does not allow it", async () => {
    const closed = await createSdkProject(baseUrl);
    const { user } = await signedUp(closed);
    const error = await user.createTeam({ displayName: "Nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(403);
  });

  it("reads and edits its own profile in a team, which the members list shows", async () => {
    const { user } = await signedUp();
    await user.update({ displayName: "Ada" });
    const crew = await user.createTeam({ displayName: "Crew" });
    const profile = await user.getTeamProfile(crew);
    expect(profile).toMatchObject({ displayName: "Ada", profileImageUrl: null });

    const entry = user._teamProfileEntry(crew);
    const renamed = nextSnapshot(entry, (s) => s.status === "ok" && s.value.displayName === "Ada in Crew");
    await profile.update({ displayName: "Ada in Crew" });
    expect((await renamed.seen).displayName).toBe("Ada in Crew");
    renamed.unsubscribe();
    expect(await crew.listUsers()).toEqual([{ id: user.id, teamProfile: { displayName: "Ada in Crew", profileImageUrl: null } }]);
  });
});

describe("team objects", () => {
  it("updates a team (a subscribed list shows the new name) and deletes it", async () => {
    const { app, user } = await signedUp();
    const crew = await user.createTeam({ displayName: "Crew" });
    const entry = user._teamsEntry();
    await user.listTeams();
    const renamed = nextSnapshot(entry, (s) => s.status === "ok" && s.value.some((t) => t.displayName === "Renamed"));
    await crew.update({ displayName: "Renamed", clientMetadata: { color: "blue" } });
    const shown = (await renamed.seen).find((t) => t.id === crew.id)!;
    expect(shown).toMatchObject({ displayName: "Renamed", clientMetadata: { color: "blue" } });
    renamed.unsubscribe();
    // The selected team on the user object follows too.
    expect((await app.getUser({ or: "throw" })).selectedTeam?.displayName).toBe("Renamed");

    await shown.delete();
    expect(await user.getTeam(crew.id)).toBeNull();
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).not.toBe(crew.id);
  });

  it("refuses a member the writes their permissions do not allow", async () => {
    const { user: owner } = await signedUp();
    const { user: member } = await signedUp();
    const crew = await owner.createTeam({ displayName: "Crew" });
    await (await serverApp().getTeam(crew.id))!.addUser(member.id);
    const seen = (await member.getTeam(crew.id))!;
    expect(seen.displayName).toBe("Crew");
    await expect(seen.update({ displayName: "Mine" })).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    await expect(seen.delete()).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    // team_member includes $read_members: the member sees both.
    expect((await seen.listUsers()).map((u) => u.id).sort()).toEqual([owner.id, member.id].sort());
  });
});

describe("server app", () => {
  it("creates a team for a creator, reads it by id with its server fields, and lists it", async () => {
    const { user } = await signedUp();
    const srv = serverApp();
    const created = await srv.createTeam({ displayName: "Ops", creatorUserId: user.id, serverMetadata: { tier: 2 } });
    expect(created).toBeInstanceOf(ServerTeam);
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.serverMetadata).toEqual({ tier: 2 });
    expect((await srv.getTeam(created.id))?.displayName).toBe("Ops");
    expect(await srv.getTeam(crypto.randomUUID())).toBeNull();
    expect((await srv.listTeams()).some((t) => t.id === created.id)).toBe(true);
    expect((await (await srv.getUser(user.id))!.listTeams()).map((t) => t.id)).toContain(created.id);
    await (await srv.getUser(user.id))!.update({ selectedTeamId: created.id });

    await created.update({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { seats: 5 } });
    const reread = (await srv.getUser(user.id))!;
    expect(reread.selectedTeam).toBeInstanceOf(ServerTeam);
    expect(reread.selectedTeam).toMatchObject({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { seats: 5 } });
  });

  it("adds and removes members, and lists them as server users with their team profile", async () => {
    const { user: ada } = await signedUp();
    const { user: bo } = await signedUp();
    const srv = serverApp();
    const team = await srv.createTeam({ displayName: "Ops" });
    await team.addUser(ada.id);
    await team.addUser(bo.id);
    await expect(team.addUser(bo.id)).rejects.toBeInstanceOf(KnownErrors.TeamMembershipAlreadyExists);
    const members = await team.listUsers();
    expect(members.map((m) => m.primaryEmail).sort()).toEqual([ada.primaryEmail, bo.primaryEmail].sort());
    expect(members[0]!.teamProfile).toEqual({ displayName: null, profileImageUrl: null });
    expect(members[0]!.lastActiveAt).toBeInstanceOf(Date);

    await team.removeUser(bo.id);
    expect((await bo.listTeams()).some((t) => t.id === team.id)).toBe(false);
    expect((await team.listUsers()).map((m) => m.id)).toEqual([ada.id]);
  });

  it("creates and lists a user's teams from the server user object", async () => {
    const { user } = await signedUp();
    const serverUser = (await serverApp().getUser(user.id))!;
    const made = await serverUser.createTeam({ displayName: "Made on the server" });
    expect(made).toBeInstanceOf(ServerTeam);
    expect((await serverUser.listTeams()).map((t) => t.id)).toContain(made.id);
    expect((await serverUser.getTeam(made.id))?.serverMetadata).toBeNull();
    expect(await serverUser.hasPermission(made, "$delete_team")).toBe(true);
  });

  it("sees nothing of another project's teams", async () => {
    const other = await createSdkProject(baseUrl);
    const foreign = await serverApp(other).createTeam({ displayName: "Elsewhere" });
    expect(await serverApp().getTeam(foreign.id)).toBeNull();
  });
});
