/** An end user's whole life through StackClientApp, against a real server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CurrentUser, HttpError, KnownErrors, StackClientApp, StackServerApp } from "../../src/index.ts";
import { type SdkProject, clientAppOf, startServerWithProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject({ clientUserDeletionEnabled: true })));
afterAll(() => server?.close());

function clientApp(options: Partial<ConstructorParameters<typeof StackClientApp>[0]> = {}) {
  return clientAppOf(baseUrl, project, options);
}

async function signedUp(app = clientApp(), email = uniqueEmail()) {
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  expect(result).toEqual({ status: "ok", data: undefined });
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

describe("sign-up and sign-in", () => {
  it("signs up, reads the user, signs out and in again", async () => {
    const { app, email, user } = await signedUp();
    expect(user).toBeInstanceOf(CurrentUser);
    expect(user).toMatchObject({
      primaryEmail: email,
      primaryEmailVerified: false,
      hasPassword: true,
      isAnonymous: false,
      displayName: null,
    });
    expect(user.signedUpAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

    await app.signOut();
    expect(await app.getUser()).toBeNull();
    expect(await app.getAccessToken()).toBeNull();

    const wrong = await app.signInWithCredential({ email, password: "not the password", noRedirect: true });
    expect(wrong.status).toBe("error");
    expect(wrong.status === "error" && wrong.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect(wrong.status === "error" && wrong.error.message).toBe("Wrong e-mail or password.");
    // The official SDK's property name, which apps written for it test.
    expect(wrong.status === "error" && wrong.error.errorCode).toBe("EMAIL_PASSWORD_MISMATCH");

    expect(await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser())?.id).toBe(user.id);
  });

  it("returns a taken e-mail and a weak password as error results, creating nothing", async () => {
    const { email } = await signedUp();
    const again = await clientApp().signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(again.status === "error" && again.error).toBeInstanceOf(KnownErrors.UserWithEmailAlreadyExists);
    if (again.status === "error" && again.error instanceof KnownErrors.UserWithEmailAlreadyExists) {
      expect(again.error.details.email).toBe(email);
      expect(again.error.errorCode).toBe("USER_EMAIL_ALREADY_EXISTS");
    }
    const short = await clientApp().signUpWithCredential({ email: uniqueEmail(), password: "short", noRedirect: true });
    expect(short.status === "error" && short.error).toBeInstanceOf(KnownErrors.PasswordRequirementsNotMet);
  });
});

describe("getUser with nobody signed in", () => {
  it("returns null by default, throws with the exact message, or redirects", async () => {
    expect(await clientApp().getUser()).toBeNull();
    await expect(clientApp().getUser({ or: "throw" })).rejects.toThrow("User is not signed in but getUser was called with { or: 'throw' }");
    const visited: string[] = [];
    const app = clientApp({ redirectMethod: { navigate: (to) => visited.push(to) } });
    await expect(app.getUser({ or: "redirect" })).rejects.toThrow(/Redirected to the sign-in page/);
    expect(visited).toEqual(["/handler/sign-in"]);
  });

  it("creates an anonymous user with or: 'anonymous', who is otherwise treated as signed out", async () => {
    const app = clientApp();
    const anonymous = await app.getUser({ or: "anonymous" });
    expect(anonymous.isAnonymous).toBe(true);
    expect(await app.getUser()).toBeNull();
    expect((await app.getUser({ or: "anonymous" })).id).toBe(anonymous.id);
  });

  it("keeps an anonymous user's id when they sign up with a password", async () => {
    const app = clientApp();
    const anonymous = await app.getUser({ or: "anonymous" });
    const email = uniqueEmail();
    const result = await app.signUpWithCredential({ email, password: "a long enough password", noRedirect: true });
    expect(result.status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user).toMatchObject({ id: anonymous.id, isAnonymous: false, primaryEmail: email });
  });
});

describe("the signed-in user", () => {
  it("updates profile fields, and the next read shows them", async () => {
    const { app, user } = await signedUp();
    await user.update({ displayName: "Grace", clientMetadata: { theme: "dark" } });
    const read = await app.getUser({ or: "throw" });
    expect(read).toMatchObject({ displayName: "Grace", clientMetadata: { theme: "dark" } });
    await read.setDisplayName(null);
    expect((await app.getUser({ or: "throw" })).displayName).toBeNull();
  });

  it("changes the password (the old one must match) and cannot set one it already has", async () => {
    const { app, email, user } = await signedUp();
    // As in the SDK it mirrors: the refusal is the resolved value, success is undefined.
    expect(await user.updatePassword({ oldPassword: "wrong password", newPassword: "another long password" })).toBeInstanceOf(
      KnownErrors.PasswordConfirmationMismatch,
    );
    expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "short" })).toBeInstanceOf(
      KnownErrors.PasswordRequirementsNotMet,
    );
    expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "another long password" })).toBeUndefined();
    await expect(user.setPassword({ password: "yet another password" })).rejects.toBeInstanceOf(HttpError);

    await app.signOut();
    const old = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(old.status).toBe("error");
    expect((await app.signInWithCredential({ email, password: "another long password", noRedirect: true })).status).toBe("ok");
  });

  it("lists sessions, revokes another one, whose refresh token then stops working", async () => {
    const { email, user } = await signedUp();
    const laptop = clientApp();
    await laptop.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const sessions = await user.getActiveSessions();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.isCurrentSession)).toHaveLength(1);
    const other = sessions.find((s) => !s.isCurrentSession)!;
    expect(other.createdAt).toBeInstanceOf(Date);

    await user.revokeSession(other.id);
    expect((await user.getActiveSessions()).map((s) => s.id)).not.toContain(other.id);
    // The laptop's session ended: its access token is refused at once, its refresh fails, and it is signed out.
    expect(await laptop.getUser()).toBeNull();
  });

  it("deletes the account when the project allows it", async () => {
    const { app, user } = await signedUp();
    await user.delete();
    expect(await app.getUser()).toBeNull();
    const admin = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    expect(await admin.getUser(user.id)).toBeNull();
  });
});

describe("token store", () => {
  it("accepts explicit tokens, e.g. a server reading the user of a request", async () => {
    const { app, user } = await signedUp();
    const tokens = await app.getAuthJson();
    expect(tokens.refreshToken).toMatch(/^[0-9a-z]{45}$/);
    const backend = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    const seen = await backend.getUser({ tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } });
    expect(seen?.id).toBe(user.id);
  });

  it("signs out a session given by explicit tokens: that session ends, on the server too", async () => {
    const { app } = await signedUp();
    const tokens = await app.getAuthJson();
    const elsewhere = clientApp({ tokenStore: tokens });
    const user = await elsewhere.getUser({ or: "throw" });
    await user.signOut();
    expect(await elsewhere.getUser()).toBeNull();
    // Same tokens, so the original app's session is gone as well once its access token is refreshed.
    expect(await user._internalSession.refresh()).toBeNull();
    const fresh = clientApp({ tokenStore: { accessToken: null, refreshToken: tokens.refreshToken } });
    expect(await fresh.getUser()).toBeNull();
  });

  it("refuses a token store object that is neither a token pair nor a request", async () => {
    const app = clientApp();
    await expect(app.getUser({ tokenStore: { token: "x" } as never })).rejects.toThrow(
      /must be \{ accessToken, refreshToken \}.*or a request/,
    );
  });

  it("a client app without a store must be given tokens", async () => {
    const app = clientApp({ tokenStore: null });
    await expect(app.getUser()).rejects.toThrow(/no token store/);
  });
});
