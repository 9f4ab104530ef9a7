/**
 * What a server app does for any user that the signed-in user does for
 * themselves: the client's view of them, selecting a team, mailing the
 * primary e-mail's verification link and registering a passkey (the browser
 * faked around the software authenticator, fake-webauthn.ts); and every
 * member's team permissions in one call.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KnownErrors, Passkey, StackClientApp, StackServerApp } from "../../src/index.ts";
import { CALLBACK_URL, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { installFakeWebAuthn, type FakeWebAuthn } from "./fake-webauthn.ts";
import { type SdkProject, startMailingServerWithProject } from "./fixtures.ts";
import { uniqueEmail } from "./support.ts";

let mailing: MailingServer;
let baseUrl: string;
let project: SdkProject;
let server: StackServerApp;

beforeAll(async () => {
  ({ mailing, baseUrl, project } = await startMailingServerWithProject({ passkeyEnabled: true, clientTeamCreationEnabled: true }));
  server = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
});
afterAll(() => mailing?.close());

function clientApp() {
  return new StackClientApp({ baseUrl, projectId: project.id, publishableClientKey: project.publishableClientKey, tokenStore: "memory" });
}

describe("toClientJson", () => {
  it("is the user as a client reads them, without server-only fields", async () => {
    const user = await server.createUser({ primaryEmail: uniqueEmail(), serverMetadata: { plan: "pro" } });
    await user.createTeam({ displayName: "Crew" });
    const fresh = (await server.getUser(user.id))!;
    const tokens = await (await fresh.createSession()).getTokens();
    const asClient = (await clientApp().getUser({ tokenStore: tokens, or: "throw" })).toClientJson();
    expect(fresh.toClientJson()).toEqual(asClient);
    expect(fresh.toClientJson()).not.toHaveProperty("server_metadata");
    expect(fresh.toClientJson().selected_team).not.toHaveProperty("server_metadata");
    // The signed-in user read by a server app too.
    expect((await server.getUser({ tokenStore: tokens, or: "throw" })).toClientJson()).toEqual(asClient);
  });
});

describe("setSelectedTeam", () => {
  it("selects a team by object or id, or none", async () => {
    const user = await server.createUser({ primaryEmail: uniqueEmail() });
    const first = await server.createTeam({ displayName: "First", creatorUserId: user.id });
    const second = await server.createTeam({ displayName: "Second", creatorUserId: user.id });
    await user.setSelectedTeam(first);
    expect((await server.getUser(user.id))!.selectedTeam?.id).toBe(first.id);
    await user.setSelectedTeam(second.id);
    expect((await server.getUser(user.id))!.selectedTeam?.id).toBe(second.id);
    await user.setSelectedTeam(null);
    expect((await server.getUser(user.id))!.selectedTeam).toBeNull();
  });
});

describe("sendVerificationEmail", () => {
  it("mails a link that verifies the primary e-mail; then answers EmailAlreadyVerified", async () => {
    const email = uniqueEmail("verify");
    const user = await server.createUser({ primaryEmail: email });
    expect(await user.sendVerificationEmail({ callbackUrl: CALLBACK_URL })).toBeUndefined();
    const { code } = linkIn(await mailing.mailTo(email));
    expect((await clientApp().verifyEmail(code)).status).toBe("ok");
    const verified = (await server.getUser(user.id))!;
    expect(verified.primaryEmailVerified).toBe(true);
    expect(await verified.sendVerificationEmail({ callbackUrl: CALLBACK_URL })).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
    // The signed-in user's own method answers the same way.
    const tokens = await (await verified.createSession()).getTokens();
    const me = await clientApp().getUser({ tokenStore: tokens, or: "throw" });
    expect(await me.sendVerificationEmail({ callbackUrl: CALLBACK_URL })).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
  });

  it("needs a primary e-mail", async () => {
    const user = await server.createUser({});
    await expect(user.sendVerificationEmail({ callbackUrl: CALLBACK_URL })).rejects.toThrow(/no primary e-mail/);
  });
});

describe("registerPasskey", () => {
  let webauthn: FakeWebAuthn;
  beforeEach(() => {
    webauthn = installFakeWebAuthn("http://localhost:3000");
  });
  afterEach(() => webauthn.uninstall());

  it("registers a passkey of this browser for the user, and ends the session it used", async () => {
    const user = await server.createUser({ primaryEmail: uniqueEmail() });
    expect(await user.registerPasskey({ hostname: "localhost" })).toEqual({ status: "ok", data: undefined });
    expect(webauthn.requestedRpIds).toEqual(["localhost"]);
    const [passkey] = await user.listPasskeys();
    expect(passkey).toBeInstanceOf(Passkey);
    expect((await server.getUser(user.id))!.passkeyAuthEnabled).toBe(true);
    expect(await user.getActiveSessions()).toEqual([]);
  });

  it("answers a cancelled prompt as PASSKEY_WEBAUTHN_ERROR", async () => {
    const user = await server.createUser({ primaryEmail: uniqueEmail() });
    webauthn.refuseNext("NotAllowedError");
    const result = await user.registerPasskey();
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect(await user.listPasskeys()).toEqual([]);
  });
});

describe("updatePassword", () => {
  const OLD = "the user's first passphrase";
  const NEW = "the user's second passphrase";

  it("checks the old password, then sets the new one and ends every session of the user", async () => {
    const email = uniqueEmail();
    const user = await server.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: OLD });
    const signedIn = await user.createSession();
    // As on the signed-in user: the refusal is the resolved value, success is undefined.
    expect(await user.updatePassword({ oldPassword: "not the password", newPassword: NEW })).toBeInstanceOf(
      KnownErrors.PasswordConfirmationMismatch,
    );
    expect(await user.updatePassword({ oldPassword: OLD, newPassword: "short" })).toBeInstanceOf(KnownErrors.PasswordRequirementsNotMet);
    // Refused changes end nothing: the user's own session is still there (and no brief one is left).
    expect(await user.getActiveSessions()).toHaveLength(1);

    expect(await user.updatePassword({ oldPassword: OLD, newPassword: NEW })).toBeUndefined();
    expect(await user.getActiveSessions()).toEqual([]);
    const client = clientApp();
    // The ended session's refresh token no longer signs in.
    const { refreshToken } = await signedIn.getTokens();
    expect(await client.getUser({ tokenStore: { accessToken: null, refreshToken } })).toBeNull();
    expect((await client.signInWithCredential({ email, password: OLD, noRedirect: true })).status).toBe("error");
    expect((await client.signInWithCredential({ email, password: NEW, noRedirect: true })).status).toBe("ok");
  });

  it("refuses a user without a password (setPassword is for them)", async () => {
    const user = await server.createUser({ primaryEmail: uniqueEmail() });
    await expect(user.updatePassword({ oldPassword: OLD, newPassword: NEW })).rejects.toBeInstanceOf(KnownErrors.UserDoesNotHavePassword);
    expect(await user.getActiveSessions()).toEqual([]);
  });
});

describe("listTeamMemberPermissions", () => {
  it("lists every member's direct grants, or with recursive the contained ones too", async () => {
    const creator = await server.createUser({ primaryEmail: uniqueEmail() });
    const member = await server.createUser({ primaryEmail: uniqueEmail() });
    const team = await server.createTeam({ displayName: "Roster", creatorUserId: creator.id });
    await team.addUser(member.id);
    const direct = await server.listTeamMemberPermissions(team.id);
    const sorted = (grants: { userId: string; permissionId: string }[]) =>
      grants.map((g) => `${g.userId === creator.id ? "creator" : "member"}:${g.permissionId}`).sort();
    expect(sorted(direct)).toEqual(["creator:team_admin", "member:team_member"]);
    const recursive = sorted(await server.listTeamMemberPermissions(team.id, { recursive: true }));
    expect(recursive).toContain("creator:$delete_team");
    expect(recursive).toContain("member:$read_members");
    expect(recursive).not.toContain("member:$delete_team");
  });
});
