/**
 * What an admin tool (the dashboard) does to one user through the SDK
 * against a real server: list and remove their passkeys, see their
 * sessions (impersonations marked) and revoke one, whose refresh token then
 * stops working, and build an impersonation link whose fragment carries the
 * tokens back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { impersonationLink, impersonationTokensOf, type ServerUser, type StackAdminApp } from "../../src/index.ts";
import { installFakeWebAuthn } from "./fake-webauthn.ts";
import { clientAppOf, createSdkProject, refreshWith, type SdkProject } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let admin: StackAdminApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl, { passkeyEnabled: true, credentialEnabled: true });
  admin = project.project.app;
});
afterAll(() => server?.close());

/** A user with a password, signed in once through a client app: the user and that app. */
async function signedInUser(): Promise<{ user: ServerUser; email: string; client: ReturnType<typeof clientAppOf> }> {
  const email = uniqueEmail("admin-target");
  const user = await admin.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: PASSWORD });
  const client = clientAppOf(baseUrl, project);
  expect((await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
  return { user, email, client };
}

describe("a user's passkeys, as an admin sees them", () => {
  const webauthn = { current: null as ReturnType<typeof installFakeWebAuthn> | null };
  afterEach(() => webauthn.current?.uninstall());

  it("lists the passkeys the user registered, and removing one leaves none", async () => {
    const { user, client } = await signedInUser();
    expect(await user.listPasskeys()).toEqual([]);
    webauthn.current = installFakeWebAuthn("http://localhost:3000");
    expect((await (await client.getUser({ or: "throw" })).registerPasskey()).status).toBe("ok");
    const [passkey, ...rest] = await user.listPasskeys();
    expect(rest).toEqual([]);
    expect(passkey).toMatchObject({ userId: user.id, deviceType: "singleDevice" });
    await passkey!.delete();
    expect(await user.listPasskeys()).toEqual([]);
    expect((await admin.getUser(user.id))!.passkeyAuthEnabled).toBe(false);
  });
});

describe("a user's sessions, as an admin sees them", () => {
  it("marks impersonations; a revoked session's refresh token stops working while another's still works", async () => {
    const { user, email, client } = await signedInUser();
    const second = clientAppOf(baseUrl, project);
    expect((await second.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const impersonation = await (await user.createSession({ isImpersonation: true, expiresInMillis: 60_000 })).getTokens();

    const sessions = await user.getActiveSessions();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.isImpersonation)).toHaveLength(1);
    for (const session of sessions) {
      expect(session.userId).toBe(user.id);
      expect(session.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    }

    const tokens = [(await client.getRefreshToken())!, (await second.getRefreshToken())!];
    await user.revokeSession(sessions.find((s) => !s.isImpersonation)!.id);
    const answers = await Promise.all(
      tokens.map(async (token) => {
        const response = await refreshWith(baseUrl, project, token);
        return response.headers.get("x-stack-known-error") ?? String(response.status);
      }),
    );
    expect(answers.sort()).toEqual(["200", "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]);
    expect((await refreshWith(baseUrl, project, impersonation.refreshToken)).status).toBe(200);
    expect((await user.getActiveSessions()).map((s) => s.isImpersonation).sort()).toEqual([false, true]);
  });
});

describe("setting a user's password, as the server", () => {
  it("signs in with the new password only, and ends the user's sessions", async () => {
    const { user, email, client } = await signedInUser();
    const refreshToken = (await client.getRefreshToken())!;
    expect(await user.getActiveSessions()).toHaveLength(1);
    await user.setPassword({ password: "a server-set passphrase" });
    expect(await user.getActiveSessions()).toEqual([]);
    expect((await refreshWith(baseUrl, project, refreshToken)).headers.get("x-stack-known-error")).toBe(
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
    const fresh = clientAppOf(baseUrl, project);
    expect((await fresh.signInWithCredential({ email, password: "a server-set passphrase", noRedirect: true })).status).toBe("ok");
    const old = await clientAppOf(baseUrl, project).signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(old.status).toBe("error");
  });
});

describe("impersonation links", () => {
  it("carry the tokens in the fragment of the host app's page, and read back", () => {
    const link = impersonationLink("https://app.example.com/handler/impersonate", { refreshToken: "r+/=", accessToken: "a.b.c" });
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe("https://app.example.com/handler/impersonate");
    expect(url.search).toBe("");
    expect(impersonationTokensOf(url.hash)).toEqual({ refreshToken: "r+/=", accessToken: "a.b.c" });
    expect(impersonationTokensOf("")).toBeNull();
    expect(impersonationTokensOf("#access_token=x")).toBeNull();
  });
});
