/**
 * Two-factor in the SDK against a real server: turning it on and off with
 * `user.update({ totpMultiFactorSecret })`; a first sign-in step (password,
 * mailed code) that meets it keeps the attempt code in session storage and
 * goes to the MFA page; `signInWithMfa` finishes with the authenticator's
 * code. Session storage is a stand-in here (Node has none), as the browser
 * tests use the real one.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { KnownErrors, StackClientApp, StackServerApp, type CurrentUser } from "../../src/index.ts";
import { CALLBACK_URL, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { totpCode, wrongTotpCode } from "../../../server/test/mfa-fixtures.ts";
import { clientAppOf, type SdkProject, startMailingServerWithProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail } from "./support.ts";

const ATTEMPT_KEY = "stack_mfa_attempt_code";
const FALLBACK_ATTEMPT_KEY = "hexclave_mfa_attempt_code";

let mailing: MailingServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ mailing, baseUrl, project } = await startMailingServerWithProject({ magicLinkEnabled: true })));
afterAll(() => mailing?.close());
afterEach(() => vi.unstubAllGlobals());

/** A tab's session storage. */
function fakeSessionStorage(): Map<string, string> {
  const items = new Map<string, string>();
  const storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
  vi.stubGlobal("sessionStorage", storage);
  return items;
}

/** A client app whose redirects are recorded instead of followed. */
function recordingApp(): { app: StackClientApp; visited: string[] } {
  const visited: string[] = [];
  const app = clientAppOf(baseUrl, project, {
    redirectMethod: { navigate: (to) => visited.push(to) },
    urls: { afterSignIn: "/signed-in", afterSignUp: "/signed-up" },
  });
  return { app, visited };
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A new user who turned two-factor on with a fresh 20-byte secret. */
async function totpUser(): Promise<{ app: StackClientApp; email: string; user: CurrentUser; secretBase64: string }> {
  const app = clientAppOf(baseUrl, project);
  const email = uniqueEmail("mfa");
  const signedUp = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  if (signedUp.status !== "ok") throw signedUp.error;
  const secret = new Uint8Array(randomBytes(20));
  await (await app.getUser({ or: "throw" })).update({ totpMultiFactorSecret: secret });
  const user = await app.getUser({ or: "throw" });
  expect(user.isMultiFactorRequired).toBe(true);
  return { app, email, user, secretBase64: base64(secret) };
}

/** Password sign-in of a two-factor user: the MFA error is thrown after the redirect; returns its attempt code. */
async function passwordStep(app: StackClientApp, email: string): Promise<string> {
  const error = await app.signInWithCredential({ email, password: PASSWORD }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
  return (error as InstanceType<typeof KnownErrors.MultiFactorAuthenticationRequired>).details.attempt_code;
}

describe("signing in a user with two-factor on", () => {
  it("keeps the password step's attempt code, goes to the MFA page, and finishes with a current code", async () => {
    const { email, user, secretBase64 } = await totpUser();
    const storage = fakeSessionStorage();
    const { app, visited } = recordingApp();
    const code = await passwordStep(app, email);
    expect(visited).toEqual(["/handler/mfa"]);
    expect(storage.get(ATTEMPT_KEY)).toBe(code);
    expect(StackClientApp.mfaAttemptCode()).toBe(code);
    expect(await app.getUser()).toBeNull();

    expect(await app.signInWithMfa(totpCode(secretBase64), code)).toEqual({ status: "ok", data: undefined });
    expect(visited).toEqual(["/handler/mfa", "/signed-in"]);
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
    expect(storage.size).toBe(0);
  });

  it("answers a wrong code with InvalidTotpCode and keeps the attempt code for another try", async () => {
    const { email, user, secretBase64 } = await totpUser();
    const storage = fakeSessionStorage();
    const { app, visited } = recordingApp();
    const code = await passwordStep(app, email);

    const wrong = await app.signInWithMfa(wrongTotpCode(secretBase64), code);
    expect(wrong.status === "error" && wrong.error).toBeInstanceOf(KnownErrors.InvalidTotpCode);
    expect(await app.getUser()).toBeNull();
    expect(storage.get(ATTEMPT_KEY)).toBe(code);
    expect(visited).toEqual(["/handler/mfa"]);

    const right = await app.signInWithMfa(totpCode(secretBase64), code, { noRedirect: true });
    expect(right.status).toBe("ok");
    expect(visited).toEqual(["/handler/mfa"]);
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("answers an unknown or spent attempt code with a verification-code error", async () => {
    const { email, secretBase64 } = await totpUser();
    const { app } = recordingApp();
    const unknown = await app.signInWithMfa(totpCode(secretBase64), "0".repeat(45));
    expect(unknown.status === "error" && unknown.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    expect(unknown.status === "error" && unknown.error).toBeInstanceOf(KnownErrors.VerificationCodeError);

    // Without session storage the code is only in the error (a Node caller finishes with it).
    const code = await passwordStep(app, email);
    expect((await app.signInWithMfa(totpCode(secretBase64), code, { noRedirect: true })).status).toBe("ok");
    const spent = await clientAppOf(baseUrl, project).signInWithMfa(totpCode(secretBase64, Date.now() + 30_000), code);
    expect(spent.status === "error" && spent.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });

  it("reads an attempt code stored under the fallback key, and clears both keys after success", async () => {
    const { email, secretBase64 } = await totpUser();
    const storage = fakeSessionStorage();
    const { app } = recordingApp();
    const code = await passwordStep(app, email);
    storage.delete(ATTEMPT_KEY);
    storage.set(FALLBACK_ATTEMPT_KEY, code);
    expect(StackClientApp.mfaAttemptCode()).toBe(code);
    storage.set(ATTEMPT_KEY, code);

    expect((await app.signInWithMfa(totpCode(secretBase64), StackClientApp.mfaAttemptCode()!)).status).toBe("ok");
    expect(storage.size).toBe(0);
    expect(StackClientApp.mfaAttemptCode()).toBeNull();
  });

  it("keeps the mailed-code step's attempt code and goes to the MFA page the same way", async () => {
    const { email, user, secretBase64 } = await totpUser();
    // Sign-in codes go only to verified addresses.
    const server = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    await (await server.getUser(user.id))!.update({ primaryEmailVerified: true });
    const storage = fakeSessionStorage();
    const { app, visited } = recordingApp();
    expect((await app.sendMagicLinkEmail(email, { callbackUrl: CALLBACK_URL })).status).toBe("ok");
    const { code: mailedCode } = linkIn(await mailing.mailTo(email));

    await expect(app.signInWithMagicLink(mailedCode)).rejects.toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect(visited).toEqual(["/handler/mfa"]);
    const attemptCode = storage.get(ATTEMPT_KEY);
    expect(attemptCode).toHaveLength(45);
    expect(await app.getUser()).toBeNull();

    expect((await app.signInWithMfa(totpCode(secretBase64), attemptCode!)).status).toBe("ok");
    expect(visited).toEqual(["/handler/mfa", "/signed-in"]);
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });
});

describe("turning two-factor on and off", () => {
  it("sends the secret's bytes as base64; null turns it off and the password alone signs in again", async () => {
    const { app: enrolled, email, user, secretBase64 } = await totpUser();
    // The server holds exactly the bytes given: its codes are the ones this secret makes.
    const { app } = recordingApp();
    const code = await passwordStep(app, email);
    expect((await app.signInWithMfa(totpCode(secretBase64), code, { noRedirect: true })).status).toBe("ok");

    await user.update({ totpMultiFactorSecret: null });
    expect((await enrolled.getUser({ or: "throw" })).isMultiFactorRequired).toBe(false);
    const plain = recordingApp();
    expect(await plain.app.signInWithCredential({ email, password: PASSWORD })).toEqual({ status: "ok", data: undefined });
    expect(plain.visited).toEqual(["/signed-in"]);
  });

  it("lets a server turn it on for any user", async () => {
    const app = clientAppOf(baseUrl, project);
    const email = uniqueEmail("mfa-server");
    expect((await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const server = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    const serverUser = (await server.getUser((await app.getUser({ or: "throw" })).id))!;
    const secret = new Uint8Array(randomBytes(20));
    await serverUser.update({ totpMultiFactorSecret: secret });
    expect((await server.getUser(serverUser.id))!.isMultiFactorRequired).toBe(true);
    const { app: again } = recordingApp();
    const code = await passwordStep(again, email);
    expect((await again.signInWithMfa(totpCode(base64(secret)), code, { noRedirect: true })).status).toBe("ok");
  });
});
