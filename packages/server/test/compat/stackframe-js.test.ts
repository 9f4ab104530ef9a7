/**
 * Apps written for the Stack Auth API must work unchanged. The official
 * `@stackframe/js` SDK (pinned in package.json) drives a real Latchkey over
 * HTTP: owner sign-up, project and key creation, end-user password auth,
 * token refresh, sessions, sign-out, server-side user management and a
 * received team invitation accepted from the user's list. The SDK
 * is only a client here; every check goes through its public API, and the
 * server-side effects are confirmed on the wire.
 *
 * The SDK sends only `x-hexclave-*` request headers, refreshes access tokens
 * with an OAuth refresh grant at /auth/oauth/token, and refuses tokens that
 * live less than 20 s; the access-token lifetime below is just above that, so
 * waiting a couple of seconds makes the SDK refresh on its own.
 */
import { StackAdminApp, StackClientApp, StackServerApp, type CurrentUser } from "@stackframe/js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { uniqueEmail } from "../fixtures.ts";
import { createTestServer, expectKnownError, SEED_KEYS, type TestServer } from "../harness.ts";

const ACCESS_TOKEN_LIFETIME_MILLIS = 22_000;
/** The SDK refreshes a token once it has less than this left. */
const SDK_MIN_TOKEN_LIFE_MILLIS = 20_000;
const PASSWORD = "sdk compat password 1";
const VERIFICATION_URL = "http://localhost:3000/handler/email-verification";

let server: TestServer;
let baseUrl: string;

beforeAll(async () => {
  server = await createTestServer({ accessTokenExpirationMillis: ACCESS_TOKEN_LIFETIME_MILLIS });
  baseUrl = await server.listen();
});
afterAll(() => server?.close());

/** Known errors from the SDK carry the wire code as `errorCode`. */
function errorCode(error: unknown): string | undefined {
  return (error as { errorCode?: string } | null)?.errorCode;
}

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the SDK call to throw");
}

function clientApp(
  projectId: string,
  publishableClientKey: string,
  tokenStore: "memory" | { accessToken: string; refreshToken: string } = "memory",
) {
  return new StackClientApp({ projectId, publishableClientKey, baseUrl, tokenStore, redirectMethod: "none" });
}

/** The raw refresh grant the SDK uses, so a test can see a refresh token's fate on the wire. */
function refreshGrant(projectId: string, publishableClientKey: string, refreshToken: string) {
  return server.request("/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: projectId,
      client_secret: publishableClientKey,
    }).toString(),
  });
}

/**
 * Runs `fn` and returns the paths (under /api/v1) of the requests the SDK made
 * meanwhile, and the names of the headers it sent.
 */
async function recordRequests<T>(fn: () => Promise<T>): Promise<{ result: T; paths: string[]; headerNames: Set<string> }> {
  const spy = vi.spyOn(globalThis, "fetch");
  try {
    const result = await fn();
    const headerNames = new Set<string>();
    const paths = spy.mock.calls.map(([input, init]) => {
      const request = input instanceof Request ? input : null;
      new Headers(init?.headers ?? request?.headers).forEach((_value, name) => headerNames.add(name));
      return new URL(request ? request.url : String(input)).pathname.replace(/^\/api\/v1/, "");
    });
    return { result, paths, headerNames };
  } finally {
    spy.mockRestore();
  }
}

describe("@stackframe/js against Latchkey", () => {
  // Shared along the flow: each step builds on the one before.
  let ownerApp: StackClientApp<true, "internal">;
  let projectId: string;
  let keys: { publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string };
  let endUserEmail: string;

  it("signs up a project owner on the internal project", async () => {
    ownerApp = new StackClientApp({
      projectId: "internal",
      publishableClientKey: SEED_KEYS.publishableClientKey,
      baseUrl,
      tokenStore: "memory",
      redirectMethod: "none",
    });
    const email = uniqueEmail("sdk-owner");
    const result = await ownerApp.signUpWithCredential({
      email,
      password: PASSWORD,
      verificationCallbackUrl: VERIFICATION_URL,
      noRedirect: true,
    });
    expect(result.status).toBe("ok");

    const owner = await ownerApp.getUser({ or: "throw" });
    expect(owner.primaryEmail).toBe(email);
    expect(owner.hasPassword).toBe(true);
    expect(owner.isAnonymous).toBe(false);
    // The internal project gives every new user a personal team.
    expect(owner.selectedTeam?.displayName).toBe(`${email}'s Team`);
    expect(await owner.listOwnedProjects()).toEqual([]);
  });

  it("creates a project and its keys through the owned-project admin app", async () => {
    const owner = await ownerApp.getUser({ or: "throw" });
    const teamId = owner.selectedTeam!.id;
    const project = await owner.createProject({ displayName: "SDK compat project", teamId });
    projectId = project.id;
    expect(project.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(project.displayName).toBe("SDK compat project");
    expect(project.ownerTeamId).toBe(teamId);
    expect(project.isProductionMode).toBe(false);
    expect(project.config.signUpEnabled).toBe(true);
    expect(project.config.credentialEnabled).toBe(true);
    expect(project.config.createTeamOnSignUp).toBe(false);
    expect(project.config.emailConfig).toEqual({ type: "shared" });
    expect(project.config.domains).toEqual([]);

    const owned = await owner.listOwnedProjects();
    expect(owned.map((p) => p.id)).toEqual([project.id]);

    // The admin app acts with the owner's access token as admin token.
    const admin = project.app;
    expect((await admin.getProject()).id).toBe(project.id);
    expect(await admin.listInternalApiKeys()).toEqual([]);

    const created = await admin.createInternalApiKey({
      description: "SDK keys",
      expiresAt: new Date(Date.now() + 24 * 3600_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: true,
    });
    expect(created.description).toBe("SDK keys");
    expect(created.isValid()).toBe(true);
    expect(created.publishableClientKey).toMatch(/^pck_[0-9a-z]{45}$/);
    expect(created.secretServerKey).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(created.superSecretAdminKey).toMatch(/^sak_[0-9a-z]{45}$/);
    keys = {
      publishableClientKey: created.publishableClientKey!,
      secretServerKey: created.secretServerKey!,
      superSecretAdminKey: created.superSecretAdminKey!,
    };

    const listed = await admin.listInternalApiKeys();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.id).toBe(created.id);
    expect(listed[0]!.publishableClientKey).toEqual({ lastFour: keys.publishableClientKey.slice(-4) });
    expect(listed[0]!.secretServerKey).toEqual({ lastFour: keys.secretServerKey.slice(-4) });
    expect(listed[0]!.superSecretAdminKey).toEqual({ lastFour: keys.superSecretAdminKey.slice(-4) });
    expect(listed[0]!.manuallyRevokedAt).toBeNull();
  });

  it("revokes a key through the SDK, after which the server refuses it", async () => {
    const owner = await ownerApp.getUser({ or: "throw" });
    const [project] = await owner.listOwnedProjects();
    const extra = await project!.app.createInternalApiKey({
      description: "to revoke",
      expiresAt: new Date(Date.now() + 3600_000),
      hasPublishableClientKey: false,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(extra.publishableClientKey).toBeUndefined();
    const before = new StackServerApp({ projectId, secretServerKey: extra.secretServerKey!, baseUrl, tokenStore: null });
    expect(await before.listUsers()).toHaveLength(0);

    await extra.revoke();
    const listed = await project!.app.listInternalApiKeys();
    const revoked = listed.find((k) => k.id === extra.id)!;
    expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(revoked.whyInvalid()).toBe("manually-revoked");
    const after = new StackServerApp({ projectId, secretServerKey: extra.secretServerKey!, baseUrl, tokenStore: null });
    expect(errorCode(await thrownBy(after.listUsers()))).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("manages the project with the super secret admin key", async () => {
    const adminApp = () => new StackAdminApp({ projectId, ...keys, baseUrl, tokenStore: null });
    const project = await adminApp().getProject();
    expect(project.displayName).toBe("SDK compat project");
    expect(project.description).toBe("");
    expect(project.config.clientUserDeletionEnabled).toBe(false);
    await project.update({
      description: "driven by @stackframe/js",
      config: { clientUserDeletionEnabled: true, domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] },
    });
    const again = await adminApp().getProject();
    expect(again.description).toBe("driven by @stackframe/js");
    expect(again.displayName).toBe("SDK compat project");
    expect(again.config.clientUserDeletionEnabled).toBe(true);
    expect(again.config.signUpEnabled).toBe(true);
    expect(again.config.domains).toEqual([{ domain: "https://app.example.com", handlerPath: "/handler" }]);
    const seenByClients = await clientApp(projectId, keys.publishableClientKey).getProject();
    expect(seenByClients.config.clientUserDeletionEnabled).toBe(true);
  });

  it("signs up an end user, who can read and update themselves", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    const clientProject = await app.getProject();
    expect(clientProject.id).toBe(projectId);
    expect(clientProject.displayName).toBe("SDK compat project");
    expect(clientProject.config.signUpEnabled).toBe(true);
    expect(clientProject.config.credentialEnabled).toBe(true);

    endUserEmail = uniqueEmail("sdk-user");
    const signUp = await app.signUpWithCredential({
      email: endUserEmail,
      password: PASSWORD,
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(signUp.status).toBe("ok");

    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(endUserEmail);
    expect(user.primaryEmailVerified).toBe(false);
    expect(user.displayName).toBeNull();
    expect(user.hasPassword).toBe(true);
    expect(user.emailAuthEnabled).toBe(true);
    expect(user.isAnonymous).toBe(false);
    expect(user.isRestricted).toBe(false);
    expect(user.selectedTeam).toBeNull();
    expect(user.clientMetadata).toBeNull();
    expect(user.oauthProviders).toEqual([]);
    expect(Math.abs(user.signedUpAt.getTime() - Date.now())).toBeLessThan(60_000);

    const tokenBefore = (await user.getAccessToken())!;
    // After an update the SDK drops its access token and gets a new one (with
    // the refresh grant), whose claims carry the new name.
    const { result: updated, paths } = await recordRequests(async () => {
      await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } });
      return app.getUser({ or: "throw" });
    });
    expect(paths).toContain("/auth/oauth/token");
    expect(updated.displayName).toBe("Ada Lovelace");
    expect(updated.clientMetadata).toEqual({ theme: "dark" });
    const tokenAfter = (await updated.getAccessToken())!;
    expect(tokenAfter).not.toBe(tokenBefore);
    const claims = decodeJwt(tokenAfter);
    expect(claims.sub).toBe(user.id);
    expect(claims.name).toBe("Ada Lovelace");
    expect(claims.email).toBe(endUserEmail);
    expect(claims.project_id).toBe(projectId);
  });

  it("reports duplicate sign-ups, short passwords and wrong passwords as known errors", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    const duplicate = await app.signUpWithCredential({
      email: endUserEmail,
      password: PASSWORD,
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(duplicate.status).toBe("error");
    expect(errorCode(duplicate.status === "error" ? duplicate.error : null)).toBe("USER_EMAIL_ALREADY_EXISTS");

    const short = await app.signUpWithCredential({
      email: uniqueEmail("short"),
      password: "short",
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(short.status).toBe("error");
    expect(errorCode(short.status === "error" ? short.error : null)).toBe("PASSWORD_TOO_SHORT");

    const wrong = await app.signInWithCredential({ email: endUserEmail, password: "not the password", noRedirect: true });
    expect(wrong.status).toBe("error");
    expect(errorCode(wrong.status === "error" ? wrong.error : null)).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(await app.getUser()).toBeNull();
  });

  it("signs in, lists sessions with the current one flagged, and revokes another session", async () => {
    const laptop = clientApp(projectId, keys.publishableClientKey);
    const phone = clientApp(projectId, keys.publishableClientKey);
    expect((await laptop.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    expect((await phone.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const onLaptop = await laptop.getUser({ or: "throw" });
    const onPhone = await phone.getUser({ or: "throw" });
    expect(onLaptop.id).toBe(onPhone.id);
    expect(onLaptop.displayName).toBe("Ada Lovelace");

    const sessions = await onLaptop.getActiveSessions();
    // The sign-up session and the two sign-ins (newest first).
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    const current = sessions.filter((s) => s.isCurrentSession);
    expect(current).toHaveLength(1);
    for (const s of sessions) {
      expect(s.userId).toBe(onLaptop.id);
      expect(s.isImpersonation).toBe(false);
      expect(s.createdAt).toBeInstanceOf(Date);
    }
    const phoneCurrent = (await onPhone.getActiveSessions()).find((s) => s.isCurrentSession)!;
    expect(phoneCurrent.id).not.toBe(current[0]!.id);

    // The current session cannot revoke itself.
    expect(errorCode(await thrownBy(onLaptop.revokeSession(current[0]!.id)))).toBe("CANNOT_DELETE_CURRENT_SESSION");

    const phoneRefreshToken = (await onPhone.getRefreshToken())!;
    await onLaptop.revokeSession(phoneCurrent.id);
    const remaining = await onLaptop.getActiveSessions();
    expect(remaining.map((s) => s.id)).not.toContain(phoneCurrent.id);
    expect(remaining.map((s) => s.id)).toContain(current[0]!.id);
    expectKnownError(
      await refreshGrant(projectId, keys.publishableClientKey, phoneRefreshToken),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    // An app holding only the revoked refresh token is signed out.
    const revokedApp = clientApp(projectId, keys.publishableClientKey, { accessToken: "", refreshToken: phoneRefreshToken });
    expect(await revokedApp.getUser()).toBeNull();
  });

  it("refreshes an access token that is about to expire", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    const first = (await user.getAccessToken())!;
    const firstExp = decodeJwt(first).exp! * 1000;
    expect(firstExp - Date.now()).toBeGreaterThan(SDK_MIN_TOKEN_LIFE_MILLIS);

    // The SDK reads the system's time, and the test server's clock follows it: moving it (timers stay real) moves both.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    vi.setSystemTime(firstExp - SDK_MIN_TOKEN_LIFE_MILLIS + 500);
    const { result: second, paths } = await recordRequests(async () => (await user.getAccessToken())!);
    expect(paths).toEqual(["/auth/oauth/token"]);
    expect(second).not.toBe(first);
    const claims = decodeJwt(second);
    expect(claims.sub).toBe(user.id);
    expect(claims.exp! * 1000).toBeGreaterThan(firstExp);
    expect(claims.refresh_token_id).toBe(decodeJwt(first).refresh_token_id);

    // The refreshed token is accepted: the user is read again with it.
    const { paths: mePaths } = await recordRequests(async () => {
      await user.update({ clientMetadata: { refreshed: true } });
    });
    expect(mePaths).toContain("/users/me");
    expect((await app.getUser({ or: "throw" })).clientMetadata).toEqual({ refreshed: true });
  });

  it("recovers when the server rejects its access token: refresh, then retry", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    const { accessToken, refreshToken } = await user.currentSession.getTokens();
    // Claims the SDK accepts (and believes fresh for 10 minutes), but a
    // signature the server cannot match.
    const [header, payload, signature] = accessToken!.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + 600 })).toString("base64url");
    const forged = `${header}.${forgedPayload}.${signature}`;
    expectKnownError(
      await server.request("/users/me", {
        as: { type: "client", projectId, publishableClientKey: keys.publishableClientKey, accessToken: forged },
      }),
      "UNPARSABLE_ACCESS_TOKEN",
      401,
    );

    const stale = clientApp(projectId, keys.publishableClientKey, { accessToken: forged, refreshToken: refreshToken! });
    const { result, paths } = await recordRequests(() => stale.getUser({ or: "throw" }));
    expect(result.id).toBe(user.id);
    expect(paths).toEqual(["/users/me", "/auth/oauth/token", "/users/me"]);
  });

  it("changes the password", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    const wrongOld = await user.updatePassword({ oldPassword: "not the password", newPassword: "a brand new password" });
    expect(errorCode(wrongOld)).toBe("PASSWORD_CONFIRMATION_MISMATCH");
    expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "a brand new password" })).toBeUndefined();

    const other = clientApp(projectId, keys.publishableClientKey);
    const withOld = await other.signInWithCredential({ email: endUserEmail, password: PASSWORD, noRedirect: true });
    expect(errorCode(withOld.status === "error" ? withOld.error : null)).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await other.signInWithCredential({ email: endUserEmail, password: "a brand new password", noRedirect: true })).status).toBe(
      "ok",
    );
    expect((await other.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("signs out: the user is gone from the app and the refresh token is dead", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email: endUserEmail, password: "a brand new password", noRedirect: true })).status).toBe("ok");
    const user: CurrentUser = await app.getUser({ or: "throw" });
    const { refreshToken } = await user.currentSession.getTokens();
    expect(refreshToken).toBeTruthy();
    expect((await refreshGrant(projectId, keys.publishableClientKey, refreshToken!)).status).toBe(200);

    const { paths } = await recordRequests(() => user.signOut());
    expect(paths).toContain("/auth/sessions/current");
    expect(await app.getUser()).toBeNull();
    expectKnownError(await refreshGrant(projectId, keys.publishableClientKey, refreshToken!), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const stale = clientApp(projectId, keys.publishableClientKey, { accessToken: "", refreshToken: refreshToken! });
    expect(await stale.getUser()).toBeNull();
  });

  it("lets a user delete their own account when the project allows it", async () => {
    const app = clientApp(projectId, keys.publishableClientKey);
    const email = uniqueEmail("sdk-leaver");
    expect((await app.signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true })).status).toBe(
      "ok",
    );
    const user = await app.getUser({ or: "throw" });
    const refreshToken = (await user.getRefreshToken())!;
    await user.delete();
    expect(await app.getUser()).toBeNull();
    const serverApp = new StackServerApp({ projectId, secretServerKey: keys.secretServerKey, baseUrl, tokenStore: null });
    expect(await serverApp.getUser(user.id)).toBeNull();
    expectKnownError(await refreshGrant(projectId, keys.publishableClientKey, refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const again = await clientApp(projectId, keys.publishableClientKey).signInWithCredential({
      email,
      password: PASSWORD,
      noRedirect: true,
    });
    expect(errorCode(again.status === "error" ? again.error : null)).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("creates, lists, reads, updates and deletes users with the server app", async () => {
    const serverApp = new StackServerApp({
      projectId,
      publishableClientKey: keys.publishableClientKey,
      secretServerKey: keys.secretServerKey,
      baseUrl,
      tokenStore: "memory",
      redirectMethod: "none",
    });
    const email = uniqueEmail("sdk-server");
    const created = await serverApp.createUser({
      primaryEmail: email,
      primaryEmailAuthEnabled: true,
      password: PASSWORD,
      displayName: "Grace Hopper",
      clientMetadata: { a: 1 },
      clientReadOnlyMetadata: { plan: "pro" },
      serverMetadata: { internalNote: "vip" },
    });
    expect(created.primaryEmail).toBe(email);
    expect(created.displayName).toBe("Grace Hopper");
    expect(created.hasPassword).toBe(true);
    expect(created.clientMetadata).toEqual({ a: 1 });
    expect(created.clientReadOnlyMetadata).toEqual({ plan: "pro" });
    expect(created.serverMetadata).toEqual({ internalNote: "vip" });
    expect(created.lastActiveAt).toBeInstanceOf(Date);
    expect(created.riskScores).toEqual({ signUp: { bot: 0, freeTrialAbuse: 0 } });

    const fetched = await serverApp.getUser(created.id);
    expect(fetched?.primaryEmail).toBe(email);
    expect(fetched?.serverMetadata).toEqual({ internalNote: "vip" });

    // Ascending by sign-up time: the end user first, then this one.
    const all = await serverApp.listUsers();
    expect(all.map((u) => u.primaryEmail)).toEqual([endUserEmail, email]);
    const firstPage = await serverApp.listUsers({ limit: 1 });
    expect(firstPage.map((u) => u.primaryEmail)).toEqual([endUserEmail]);
    expect(firstPage.nextCursor).toBe(created.id);
    const secondPage = await serverApp.listUsers({ limit: 1, cursor: firstPage.nextCursor! });
    expect(secondPage.map((u) => u.id)).toEqual([created.id]);
    expect(secondPage.nextCursor).toBeNull();
    expect((await serverApp.listUsers({ desc: true })).map((u) => u.id)[0]).toBe(created.id);

    expect((await serverApp.listUsers({ query: "Grace" })).map((u) => u.id)).toEqual([created.id]);
    const duplicate = await thrownBy(serverApp.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: PASSWORD }));
    expect(errorCode(duplicate)).toBe("USER_EMAIL_ALREADY_EXISTS");

    await created.update({
      displayName: "Rear Admiral Hopper",
      serverMetadata: { internalNote: "promoted" },
      clientReadOnlyMetadata: { plan: "max" },
    });
    const updated = (await serverApp.getUser(created.id))!;
    expect(updated.displayName).toBe("Rear Admiral Hopper");
    expect(updated.serverMetadata).toEqual({ internalNote: "promoted" });
    expect(updated.clientReadOnlyMetadata).toEqual({ plan: "max" });

    // The user signs in on a client; the client sees no server metadata.
    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const asClient = await app.getUser({ or: "throw" });
    expect(asClient.id).toBe(created.id);
    expect(asClient.clientReadOnlyMetadata).toEqual({ plan: "max" });
    expect(asClient.toClientJson()).not.toHaveProperty("server_metadata");
    const clientRefreshToken = (await asClient.getRefreshToken())!;

    // Server-made sessions work on the client, and the server sees them all.
    const session = await updated.createSession({ expiresInMillis: 3600_000 });
    const tokens = await session.getTokens();
    const fromServerSession = clientApp(projectId, keys.publishableClientKey, {
      accessToken: tokens.accessToken!,
      refreshToken: tokens.refreshToken!,
    });
    expect((await fromServerSession.getUser({ or: "throw" })).id).toBe(created.id);
    const serverSessions = await updated.getActiveSessions();
    expect(serverSessions).toHaveLength(2);
    expect(serverSessions.every((s) => s.userId === created.id && !s.isCurrentSession)).toBe(true);
    const serverMade = serverSessions.find((s) => s.id === decodeJwt(tokens.accessToken!).refresh_token_id)!;
    expect(serverMade).toBeDefined();

    // The server app with a user's tokens reads the server view of that user.
    const serverWithUser = new StackServerApp({
      projectId,
      secretServerKey: keys.secretServerKey,
      baseUrl,
      tokenStore: { accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! },
    });
    const current = await serverWithUser.getUser({ or: "throw" });
    expect(current.id).toBe(created.id);
    expect(current.serverMetadata).toEqual({ internalNote: "promoted" });

    await updated.revokeSession(serverMade.id);
    expect((await updated.getActiveSessions()).map((s) => s.id)).not.toContain(serverMade.id);
    expectKnownError(
      await refreshGrant(projectId, keys.publishableClientKey, tokens.refreshToken!),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );

    // A password set by the server is the one to sign in with, and ends every session the user had.
    await updated.update({ password: "set by the server 1" });
    expectKnownError(
      await refreshGrant(projectId, keys.publishableClientKey, clientRefreshToken),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    const again = clientApp(projectId, keys.publishableClientKey);
    const withNew = await again.signInWithCredential({ email, password: "set by the server 1", noRedirect: true });
    expect(withNew.status).toBe("ok");
    const newRefreshToken = (await (await again.getUser({ or: "throw" })).getRefreshToken())!;

    await updated.delete();
    expect(await serverApp.getUser(created.id)).toBeNull();
    expect((await serverApp.listUsers()).map((u) => u.id)).not.toContain(created.id);
    expectKnownError(await refreshGrant(projectId, keys.publishableClientKey, newRefreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("accepts a received team invitation from the user's list", async () => {
    const serverApp = new StackServerApp({ projectId, secretServerKey: keys.secretServerKey, baseUrl, tokenStore: "memory" });
    const email = uniqueEmail("sdk-invitee");
    const team = await serverApp.createTeam({ displayName: "SDK crew" });
    await serverApp.createUser({ primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true, password: PASSWORD });
    await team.inviteUser({ email, callbackUrl: "http://localhost:3000/handler/team-invitation" });

    const app = clientApp(projectId, keys.publishableClientKey);
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    const [invitation] = await user.listTeamInvitations();
    expect(invitation).toMatchObject({ teamId: team.id, teamDisplayName: "SDK crew", recipientEmail: email });
    await invitation!.accept();
    expect((await team.listUsers()).map((u) => u.id)).toEqual([user.id]);
  });

  it("lets a browser send every header the SDK sends (CORS preflight)", async () => {
    const { headerNames } = await recordRequests(async () => {
      const app = clientApp(projectId, keys.publishableClientKey);
      await app.signInWithCredential({ email: endUserEmail, password: "a brand new password", noRedirect: true });
      const user = await app.getUser({ or: "throw" });
      await user.update({ clientMetadata: { cors: true } });
      await app.getUser();
      await new StackServerApp({ projectId, secretServerKey: keys.secretServerKey, baseUrl, tokenStore: null }).listUsers();
      const owner = await ownerApp.getUser({ or: "throw" });
      const [project] = await owner.listOwnedProjects();
      await project!.app.listInternalApiKeys();
    });
    // Sent by the SDK's OAuth library outside browsers only.
    headerNames.delete("user-agent");
    headerNames.delete("accept");
    expect([...headerNames]).toEqual(
      expect.arrayContaining(["x-hexclave-access-token", "x-hexclave-admin-access-token", "x-hexclave-secret-server-key"]),
    );
    // This SDK speaks only the x-hexclave-* aliases.
    expect([...headerNames].filter((name) => name.startsWith("x-stack-"))).toEqual([]);

    const res = await fetch(`${baseUrl}/api/v1/users/me`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": [...headerNames].join(","),
      },
    });
    expect(res.status).toBeLessThan(300);
    const allowed = new Set((res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/));
    expect([...headerNames].filter((name) => !allowed.has(name))).toEqual([]);
  });
});
