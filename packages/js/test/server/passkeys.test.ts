/**
 * Passkeys through the SDK against a real server: `user.registerPasskey()`,
 * `app.signInWithPasskey()`, listing, renaming and removing. The browser's
 * WebAuthn is faked around the server tests' software authenticator
 * (fake-webauthn.ts), so the server verifies real signatures; the real
 * browser is in packages/react/test/browser/passkeys.test.ts.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KnownErrors, Passkey, StackClientApp } from "../../src/index.ts";
import { installFakeWebAuthn, type FakeWebAuthn } from "./fake-webauthn.ts";
import { clientAppOf, createSdkProject, type SdkProject, startServerWithProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

const ORIGIN = "http://localhost:3000";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let webauthn: FakeWebAuthn;
let visited: string[];

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject({ passkeyEnabled: true })));
afterAll(() => server?.close());
beforeEach(() => {
  webauthn = installFakeWebAuthn(ORIGIN);
  visited = [];
});
afterEach(() => webauthn.uninstall());

function clientApp(p: Pick<SdkProject, "id" | "publishableClientKey"> = project): StackClientApp {
  return clientAppOf(baseUrl, p, { redirectMethod: { navigate: (to) => visited.push(to) } });
}

async function signedUp(app = clientApp()) {
  const email = uniqueEmail();
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

describe("registering a passkey", () => {
  it("registers one for this page's hostname and marks the user", async () => {
    const { app, user } = await signedUp();
    expect(user.passkeyAuthEnabled).toBe(false);
    expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
    expect(webauthn.requestedRpIds).toEqual(["localhost"]);
    const updated = await app.getUser({ or: "throw" });
    expect(updated.passkeyAuthEnabled).toBe(true);
    const [passkey] = await updated.listPasskeys();
    expect(passkey).toBeInstanceOf(Passkey);
    expect(passkey).toMatchObject({ userId: user.id, deviceType: "singleDevice", backedUp: false, lastUsedAt: null });
    expect(passkey!.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("reports a cancelled prompt as PASSKEY_WEBAUTHN_ERROR with the browser's error name", async () => {
    const { user } = await signedUp();
    webauthn.refuseNext("NotAllowedError");
    const result = await user.registerPasskey();
    expect(result.status).toBe("error");
    if (result.status !== "error") return;
    expect(result.error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect(result.error.details).toMatchObject({ code: "NotAllowedError" });
    expect(await user.listPasskeys()).toEqual([]);
  });

  it("reports passkeys being off as PASSKEY_REGISTRATION_FAILED", async () => {
    const off = await createSdkProject(baseUrl);
    const { user } = await signedUp(clientApp(off));
    const result = await user.registerPasskey();
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.PasskeyRegistrationFailed);
    expect(result.status === "error" && result.error.message).toMatch(/could not be started.*not enabled/);
  });
});

describe("signing in with a passkey", () => {
  it("signs the passkey's user in and goes to the after-sign-in page", async () => {
    const { user } = await signedUp();
    await user.registerPasskey();
    const app = clientApp();
    expect(await app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect(webauthn.requestedRpIds).toEqual(["localhost", "localhost"]);
    expect(visited).toEqual([app.urls.afterSignIn]);
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("signs in from an app whose session is an anonymous user's: the passkey's user replaces it", async () => {
    const { user } = await signedUp();
    await user.registerPasskey();
    const app = clientApp();
    const anonymous = await app.getUser({ or: "anonymous" });
    expect(anonymous.isAnonymous).toBe(true);
    expect(await app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect(visited).toEqual([app.urls.afterSignIn]);
    const signedIn = await app.getUser({ or: "throw" });
    expect(signedIn.id).toBe(user.id);
    expect(signedIn.isAnonymous).toBe(false);
  });

  it("sends a user with two-factor on to the MFA page with the attempt code", async () => {
    const { user } = await signedUp();
    await user.registerPasskey();
    const turnedOn = await server.request(`/users/${user.id}`, {
      method: "PATCH",
      as: { type: "server", projectId: project.id, secretServerKey: project.secretServerKey },
      body: { totp_secret_base64: randomBytes(20).toString("base64") },
    });
    expect(turnedOn.status, turnedOn.text).toBe(200);
    const stored = new Map<string, string>();
    const globals = globalThis as Record<string, unknown>;
    globals.sessionStorage = { setItem: (k: string, v: string) => stored.set(k, v), getItem: (k: string) => stored.get(k) ?? null };
    try {
      const app = clientApp();
      await expect(app.signInWithPasskey()).rejects.toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
      expect(visited).toEqual([app.urls.mfa]);
      expect(StackClientApp.mfaAttemptCode()).toMatch(/^[0-9a-z]{45}$/);
      expect(await app.getUser()).toBeNull();
    } finally {
      delete globals.sessionStorage;
    }
  });

  it("reports an unknown passkey as PASSKEY_AUTHENTICATION_FAILED and a refusal as PASSKEY_WEBAUTHN_ERROR", async () => {
    const { user } = await signedUp();
    await user.registerPasskey();
    const [passkey] = await user.listPasskeys();
    await passkey!.delete();
    const app = clientApp();
    const unknown = await app.signInWithPasskey();
    expect(unknown.status === "error" && unknown.error).toBeInstanceOf(KnownErrors.PasskeyAuthenticationFailed);
    expect(unknown.status === "error" && unknown.error.message).toMatch(/Passkey not found/);
    webauthn.refuseNext("AbortError");
    const refused = await app.signInWithPasskey();
    expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect(refused.status === "error" && refused.error.details).toMatchObject({ code: "AbortError" });
    expect(visited).toEqual([]);
    expect(await app.getUser()).toBeNull();
  });
});

describe("managing passkeys", () => {
  it("renames and removes them; the cached list and the user follow", async () => {
    const { app, user } = await signedUp();
    await user.registerPasskey();
    await user.registerPasskey();
    const listed = await user.listPasskeys();
    expect(listed).toHaveLength(2);
    await listed[0]!.update({ displayName: "Laptop" });
    const renamed = await (await app.getUser({ or: "throw" })).listPasskeys();
    expect(renamed.map((p) => p.displayName)[0]).toBe("Laptop");
    for (const passkey of renamed) await passkey.delete();
    const after = await app.getUser({ or: "throw" });
    expect(await after.listPasskeys()).toEqual([]);
    expect(after.passkeyAuthEnabled).toBe(false);
  });
});
