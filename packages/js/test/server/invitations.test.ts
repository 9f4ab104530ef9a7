/**
 * Team invitations through the SDK against a real server whose mail goes to
 * a real SMTP peer: a member invites an address, the mail carries the code,
 * its recipient checks and accepts it and joins; stale codes come back as
 * error Results; invitations are listed and revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, StackServerApp, type CurrentUser, type Team } from "../../src/index.ts";
import { CALLBACK_URL, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { clientAppOf, type SdkProject, startMailingServerWithProject } from "./fixtures.ts";
import { nextSnapshot, PASSWORD, uniqueEmail } from "./support.ts";

let mailing: MailingServer;
let baseUrl: string;
let project: SdkProject;
let srv: StackServerApp;

beforeAll(async () => {
  ({ mailing, baseUrl, project } = await startMailingServerWithProject({ clientTeamCreationEnabled: true }));
  srv = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
});
afterAll(() => mailing?.close());

async function signedUp(email = uniqueEmail("invite")) {
  const app = clientAppOf(baseUrl, project);
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  if (result.status !== "ok") throw result.error;
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

/** A team its creator runs, and the code of an invitation the creator mailed to `email`. */
async function invite(owner: CurrentUser, email: string, team?: Team) {
  const crew = team ?? (await owner.createTeam({ displayName: "Crew" }));
  await crew.inviteUser({ email, callbackUrl: CALLBACK_URL });
  const mail = await mailing.mailTo(email);
  return { crew, code: linkIn(mail).code };
}

describe("inviting and joining", () => {
  it("mails the code; the recipient checks it, sees the team, accepts, and both see the new member", async () => {
    const { user: owner } = await signedUp();
    const bo = uniqueEmail("bo");
    const { crew, code } = await invite(owner, bo);
    const { app, user } = await signedUp(bo);

    expect(await app.verifyTeamInvitationCode(code)).toEqual({ status: "ok", data: undefined });
    expect(await app.getTeamInvitationDetails(code)).toEqual({ status: "ok", data: { teamId: crew.id, teamDisplayName: "Crew" } });

    const teams = user._teamsEntry();
    await user.listTeams();
    const joined = nextSnapshot(teams, (s) => s.status === "ok" && s.value.some((t) => t.id === crew.id));
    expect(await app.acceptTeamInvitation(code)).toEqual({ status: "ok", data: undefined });
    await joined.seen;
    joined.unsubscribe();

    expect((await crew.listUsers()).map((u) => u.id).sort()).toEqual([owner.id, user.id].sort());
    // The new member has the team-member defaults.
    expect(await user.hasPermission({ id: crew.id }, "$invite_members")).toBe(true);
    expect(await user.hasPermission({ id: crew.id }, "$remove_members")).toBe(false);
  });

  it("answers a used, an unknown and a malformed-case code with the catalogue's errors as Results", async () => {
    const { user: owner } = await signedUp();
    const cy = uniqueEmail("cy");
    const { code } = await invite(owner, cy);
    const { app } = await signedUp(cy);
    expect((await app.acceptTeamInvitation(code.toUpperCase())).status).toBe("ok");

    const used = await app.acceptTeamInvitation(code);
    expect(used.status === "error" && used.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    const checked = await app.verifyTeamInvitationCode(code);
    expect(checked.status === "error" && checked.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);

    const unknown = "z".repeat(45);
    const notFound = await app.acceptTeamInvitation(unknown);
    expect(notFound.status === "error" && notFound.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    const details = await app.getTeamInvitationDetails(unknown);
    expect(details.status === "error" && details.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
  });
});

describe("pending invitations", () => {
  it("lists a team's invitations and revokes one, whose code then no longer works", async () => {
    const { user: owner } = await signedUp();
    const dee = uniqueEmail("dee");
    const { crew, code } = await invite(owner, dee);
    const pending = await crew.listInvitations();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ recipientEmail: dee });
    expect(pending[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);

    const entry = crew._invitationsEntry();
    const emptied = nextSnapshot(entry, (s) => s.status === "ok" && s.value.length === 0);
    await pending[0]!.revoke();
    await emptied.seen;
    emptied.unsubscribe();

    const { app } = await signedUp(dee);
    const result = await app.acceptTeamInvitation(code);
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
  });

  it("lists the invitations to the signed-in user's verified address", async () => {
    const { user: owner } = await signedUp();
    const eve = uniqueEmail("eve");
    const { user } = await signedUp(eve);
    await (await srv.getUser(user.id))!.update({ primaryEmailVerified: true });
    const { crew } = await invite(owner, eve);
    const mine = await user.listTeamInvitations();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ teamId: crew.id, teamDisplayName: "Crew", recipientEmail: eve });
    expect(mine[0]!.expiresAt).toBeInstanceOf(Date);
  });

  it("accepts an invitation from the user's list: they join, and it leaves the list", async () => {
    const { user: owner } = await signedUp();
    const jo = uniqueEmail("jo");
    const { user } = await signedUp(jo);
    await (await srv.getUser(user.id))!.update({ primaryEmailVerified: true });
    const { crew } = await invite(owner, jo);
    const [invitation] = await user.listTeamInvitations();
    const emptied = nextSnapshot(user._teamInvitationsEntry(), (s) => s.status === "ok" && s.value.length === 0);
    await invitation!.accept();
    await emptied.seen;
    emptied.unsubscribe();
    expect((await user.listTeams()).map((t) => t.id)).toContain(crew.id);
    expect(await user.hasPermission({ id: crew.id }, "$invite_members")).toBe(true);
    // Spent: accepting it again is refused.
    await expect(invitation!.accept()).rejects.toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
  });

  it("on a server, accepts for the user whose list it came from", async () => {
    const { user: owner } = await signedUp();
    const kit = uniqueEmail("kit");
    const { user } = await signedUp(kit);
    const serverUser = (await srv.getUser(user.id))!;
    await serverUser.update({ primaryEmailVerified: true });
    const { crew } = await invite(owner, kit);
    const [invitation] = await serverUser.listTeamInvitations();
    expect(invitation).toMatchObject({ teamId: crew.id, recipientEmail: kit });
    await invitation!.accept();
    expect((await crew.listUsers()).map((u) => u.id).sort()).toEqual([owner.id, user.id].sort());
  });

  it("lets a member without $remove_members list but not revoke, and refuses invitations without $invite_members", async () => {
    const { user: owner } = await signedUp();
    const fay = uniqueEmail("fay");
    const { crew, code } = await invite(owner, fay);
    const { app, user: member } = await signedUp(fay);
    expect((await app.acceptTeamInvitation(code)).status).toBe("ok");

    const seen = (await member.getTeam(crew.id))!;
    await invite(owner, uniqueEmail("gus"), crew);
    const [pendingOne] = await seen.listInvitations();
    await expect(pendingOne!.revoke()).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);

    await (await srv.getUser(member.id))!.revokePermission(crew, "team_member");
    await expect(seen.inviteUser({ email: uniqueEmail("hal"), callbackUrl: CALLBACK_URL })).rejects.toBeInstanceOf(
      KnownErrors.TeamPermissionRequired,
    );
  });

  it("needs a callback URL outside a browser", async () => {
    const { user: owner } = await signedUp();
    const crew = await owner.createTeam({ displayName: "Crew" });
    await expect(crew.inviteUser({ email: uniqueEmail("ida") })).rejects.toThrow(/callbackUrl/);
  });
});

describe("invitations from a server", () => {
  it("a server app without a token store invites to any team, and lists and revokes the invitation", async () => {
    const team = await srv.createTeam({ displayName: "Server crew" });
    const email = uniqueEmail("server-invitee");
    await team.inviteUser({ email, callbackUrl: CALLBACK_URL });
    expect(linkIn(await mailing.mailTo(email)).code).toBeTruthy();
    const [pending] = await team.listInvitations();
    expect(pending?.recipientEmail).toBe(email);
    await pending!.revoke();
    expect(await team.listInvitations()).toEqual([]);
  });

  it("so does a project owner's admin app", async () => {
    const team = await project.project.app.createTeam({ displayName: "Owner crew" });
    const email = uniqueEmail("owner-invitee");
    await team.inviteUser({ email, callbackUrl: CALLBACK_URL });
    expect(linkIn(await mailing.mailTo(email)).code).toBeTruthy();
    expect((await team.listInvitations()).map((i) => i.recipientEmail)).toEqual([email]);
  });
});
