/**
 * Permissions through the SDK against a real server: the admin app's
 * definitions, grants and revocations from the server, and the signed-in
 * user's checks — answered from the SDK's cache, and read again after the
 * writes that change them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { KnownErrors, StackAdminApp, StackServerApp } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { countingFetch, nextSnapshot, PASSWORD, skipAhead, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let admin: StackAdminApp;
let srv: StackServerApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl, { clientTeamCreationEnabled: true });
  admin = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });
  srv = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  await admin.createTeamPermissionDefinition({ id: "editor", description: "Edits", containedPermissionIds: ["$read_members"] });
  await admin.createTeamPermissionDefinition({ id: "chief_editor", containedPermissionIds: ["editor", "$update_team"] });
  await admin.createProjectPermissionDefinition({ id: "billing", containedPermissionIds: [] });
});
afterAll(() => server?.close());
afterEach(() => vi.restoreAllMocks());

/** A signed-up user whose requests are counted, and a team of the project they belong to (server-made: team_member defaults). */
async function memberOfATeam() {
  const counting = countingFetch();
  const app = clientAppOf(baseUrl, project, { fetch: counting.fetch });
  const result = await app.signUpWithCredential({ email: uniqueEmail("perm"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  const user = await app.getUser({ or: "throw" });
  const team = await srv.createTeam({ displayName: "Desk" });
  await team.addUser(user.id);
  const serverUser = (await srv.getUser(user.id))!;
  return { app, user, team, serverUser, calls: counting.calls };
}

const idsOf = (permissions: { id: string }[]) => permissions.map((p) => p.id).sort();

describe("admin: permission definitions", () => {
  it("lists team definitions with the system permissions and the defaults, and project definitions alone", async () => {
    const team = await admin.listTeamPermissionDefinitions();
    expect(team.map((d) => d.id)).toEqual(
      expect.arrayContaining(["$delete_team", "$invite_members", "$read_members", "team_admin", "team_member", "editor", "chief_editor"]),
    );
    expect(team.find((d) => d.id === "editor")).toEqual({ id: "editor", description: "Edits", containedPermissionIds: ["$read_members"] });
    expect((await admin.listProjectPermissionDefinitions()).map((d) => d.id)).toEqual(["billing"]);
  });

  it("creates, updates, renames and deletes a definition; a subscribed list follows each write", async () => {
    const entry = admin._teamPermissionDefinitionsEntry();
    await admin.listTeamPermissionDefinitions();
    const created = nextSnapshot(entry, (s) => s.status === "ok" && s.value.some((d) => d.id === "reviewer"));
    expect(await admin.createTeamPermissionDefinition({ id: "reviewer", containedPermissionIds: [] })).toMatchObject({ id: "reviewer" });
    await created.seen;
    created.unsubscribe();

    await admin.updateTeamPermissionDefinition("reviewer", { description: "Reviews", containedPermissionIds: ["editor"] });
    expect((await admin.listTeamPermissionDefinitions()).find((d) => d.id === "reviewer")).toEqual({
      id: "reviewer",
      description: "Reviews",
      containedPermissionIds: ["editor"],
    });
    await admin.updateTeamPermissionDefinition("reviewer", { id: "critic" });
    const ids = (await admin.listTeamPermissionDefinitions()).map((d) => d.id);
    expect(ids).toContain("critic");
    expect(ids).not.toContain("reviewer");

    const gone = nextSnapshot(entry, (s) => s.status === "ok" && !s.value.some((d) => d.id === "critic"));
    await admin.deleteTeamPermissionDefinition("critic");
    await gone.seen;
    gone.unsubscribe();
  });

  it("throws the catalogue's errors for taken ids, unknown contained ids and unknown definitions", async () => {
    await expect(admin.createTeamPermissionDefinition({ id: "editor", containedPermissionIds: [] })).rejects.toBeInstanceOf(
      KnownErrors.PermissionIdAlreadyExists,
    );
    await expect(admin.createProjectPermissionDefinition({ id: "payer", containedPermissionIds: ["nope"] })).rejects.toBeInstanceOf(
      KnownErrors.ContainedPermissionNotFound,
    );
    await expect(admin.deleteProjectPermissionDefinition("nope")).rejects.toBeInstanceOf(KnownErrors.PermissionNotFound);
  });
});

describe("the signed-in user's permissions", () => {
  it("lists the team-member defaults recursively by default, and only the direct grant with recursive: false", async () => {
    const { user, team } = await memberOfATeam();
    expect(idsOf(await user.listPermissions(team))).toEqual(["$invite_members", "$read_members", "team_member"]);
    expect(idsOf(await user.listPermissions(team, { recursive: false }))).toEqual(["team_member"]);
    expect(await user.hasPermission(team, "$read_members")).toBe(true);
    expect(await user.getPermission(team, "$delete_team")).toBeNull();
    expect(await user.hasPermission("billing")).toBe(false);
  });

  it("answers repeated checks from one cached read", async () => {
    const { user, team, calls } = await memberOfATeam();
    const reads = () => calls.filter((c) => c.path === "/team-permissions").length;
    const before = reads();
    await Promise.all([user.hasPermission(team, "$read_members"), user.hasPermission(team, "$invite_members"), user.listPermissions(team)]);
    expect(reads() - before).toBe(1);
  });

  it("shows a grant made by the server app to the client after its cached read is refreshed", async () => {
    const { user, team, serverUser } = await memberOfATeam();
    expect(await user.hasPermission(team, "$update_team")).toBe(false);
    await serverUser.grantPermission(team, "chief_editor");
    skipAhead(350); // past the client cache's throttle: get() reads again
    expect(await user.hasPermission(team, "$update_team")).toBe(true);
    expect(idsOf(await user.listPermissions(team))).toEqual(
      expect.arrayContaining(["chief_editor", "editor", "$update_team", "$read_members"]),
    );
  });
});

describe("grants from a server app, seen through the same app's cache", () => {
  it("updates a subscribed permission list when the server user is granted and revoked a permission", async () => {
    const { app, team } = await memberOfATeam();
    // The signed-in user as the server app reads them: the same user, with the server's methods.
    const tokens = await app.getAuthJson();
    const me = await srv.getUser({ tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, or: "throw" });
    const entry = me._permissionsEntry(team);
    await me.listPermissions(team);

    const granted = nextSnapshot(entry, (s) => s.status === "ok" && s.value.some((p) => p.id === "editor"));
    await me.grantPermission(team, "editor");
    await granted.seen;
    granted.unsubscribe();

    const revoked = nextSnapshot(entry, (s) => s.status === "ok" && !s.value.some((p) => p.id === "editor"));
    await me.revokePermission(team, "editor");
    await revoked.seen;
    revoked.unsubscribe();
    await expect(me.revokePermission(team, "editor")).rejects.toBeInstanceOf(KnownErrors.TeamPermissionNotFound);
  });

  it("grants and revokes project permissions", async () => {
    const { serverUser } = await memberOfATeam();
    await serverUser.grantPermission("billing");
    expect(await serverUser.hasPermission("billing")).toBe(true);
    expect(idsOf(await serverUser.listPermissions())).toEqual(["billing"]);
    await serverUser.revokePermission("billing");
    expect(await serverUser.hasPermission("billing")).toBe(false);
    await expect(serverUser.revokePermission("billing")).rejects.toBeInstanceOf(KnownErrors.PermissionNotFound);
    await expect(serverUser.grantPermission("nope")).rejects.toBeInstanceOf(KnownErrors.PermissionNotFound);
  });

  it("refuses a team grant to a non-member, and a project permission granted in a team", async () => {
    const { serverUser } = await memberOfATeam();
    const elsewhere = await srv.createTeam({ displayName: "Elsewhere" });
    await expect(serverUser.grantPermission(elsewhere, "editor")).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
    const own = (await serverUser.listTeams())[0]!;
    await expect(serverUser.grantPermission(own, "billing")).rejects.toBeInstanceOf(KnownErrors.WrongPermissionScope);
  });
});
