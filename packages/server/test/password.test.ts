/** Password sign-up, sign-in, update and set (see @latchkey/shared api/auth.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  PASSWORD,
  passwordSignIn,
  patchProjectConfig,
  serverWithProject,
  signUpUser,
  uniqueEmail,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

const signUp = (p: Pick<Project, "client">, body: Record<string, unknown>, as = p.client) =>
  server.request("/auth/password/sign-up", { method: "POST", as, body });

async function userCount(p: Project, email: string): Promise<number> {
  const res = await server.request("/users", { as: p.server, query: { query: email } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.length;
}

describe("POST /auth/password/sign-up", () => {
  it("returns tokens and user_id; the user has the e-mail and a password", async () => {
    const email = uniqueEmail("signup");
    const res = await signUp(project, { email, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
    expect(res.body.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    expect(res.body.access_token.split(".")).toHaveLength(3);
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.body).toMatchObject({ id: res.body.user_id, primary_email: email, has_password: true, primary_email_verified: false });
  });

  it("sign_up_enabled false → SIGN_UP_NOT_ENABLED for client; server may still sign users up", async () => {
    const p = await createProject(server, undefined, { sign_up_enabled: false });
    const email = uniqueEmail("closed");
    const res = await signUp(p, { email, password: PASSWORD });
    expectKnownError(res, "SIGN_UP_NOT_ENABLED", 400);
    expect(await userCount(p, email)).toBe(0);
    const asServer = await signUp(p, { email, password: PASSWORD }, p.server);
    expect(asServer.status, asServer.text).toBe(200);
    // Existing users still sign in.
    expect((await passwordSignIn(server, p, email)).status).toBe(200);
  });

  it("credential_enabled false → PASSWORD_AUTHENTICATION_NOT_ENABLED on every password endpoint", async () => {
    const p = await createProject(server);
    const user = await signUpUser(server, p);
    await patchProjectConfig(server, p, { credential_enabled: false });
    const email = uniqueEmail("nocred");
    expectKnownError(await signUp(p, { email, password: PASSWORD }), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expectKnownError(await signUp(p, { email, password: PASSWORD }, p.server), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expect(await userCount(p, email)).toBe(0);
    expectKnownError(await passwordSignIn(server, p, user.email), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expectKnownError(
      await server.request("/auth/password/update", {
        method: "POST",
        as: user.as,
        body: { old_password: PASSWORD, new_password: "another password" },
      }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      400,
    );
    await patchProjectConfig(server, p, { credential_enabled: true });
    expect((await passwordSignIn(server, p, user.email)).status).toBe(200);
  });

  it("too short → PASSWORD_TOO_SHORT {min_length: 8} with its fixed message", async () => {
    const email = uniqueEmail("short");
    const res = await signUp(project, { email, password: "1234567" });
    expectKnownError(res, "PASSWORD_TOO_SHORT", 400);
    expect(res.body).toEqual({
      code: "PASSWORD_TOO_SHORT",
      details: { min_length: 8 },
      error: "Password too short. Minimum length is 8.",
    });
    expect(res.text).toBe(JSON.stringify(res.body, null, 2));
    expect(await userCount(project, email)).toBe(0);
    // Exactly 8 is enough.
    expect((await signUp(project, { email, password: "12345678" })).status).toBe(200);
  });

  it("71 characters → PASSWORD_TOO_LONG {maxLength: 70}; 70 is fine", async () => {
    const email = uniqueEmail("long");
    const res = await signUp(project, { email, password: "p".repeat(71) });
    expectKnownError(res, "PASSWORD_TOO_LONG", 400);
    expect(res.body).toEqual({
      code: "PASSWORD_TOO_LONG",
      details: { maxLength: 70 },
      error: "Password too long. Maximum length is 70.",
    });
    expect(await userCount(project, email)).toBe(0);
    expect((await signUp(project, { email, password: "p".repeat(70) })).status).toBe(200);
    expect((await passwordSignIn(server, project, email, "p".repeat(70))).status).toBe(200);
  });

  it("duplicate e-mail, also in another case → USER_EMAIL_ALREADY_EXISTS 409", async () => {
    const email = uniqueEmail("Dup");
    const first = await signUp(project, { email, password: PASSWORD });
    expect(first.status).toBe(200);
    for (const again of [email, email.toUpperCase(), email.toLowerCase()]) {
      const res = await signUp(project, { email: again, password: "some other password" });
      expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
      expect(res.body.details).toEqual({ email: again.toLowerCase(), would_work_if_email_was_verified: false });
    }
    expect(await userCount(project, email)).toBe(1);
    // The original password still works; the rejected ones never did.
    expect((await passwordSignIn(server, project, email)).status).toBe(200);
    expectKnownError(await passwordSignIn(server, project, email, "some other password"), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("bad bodies → SCHEMA_ERROR", async () => {
    expectSchemaError(await signUp(project, { email: uniqueEmail() }), "POST", "/auth/password/sign-up", ["body.password must be defined"]);
    expectSchemaError(await signUp(project, { password: PASSWORD }), "POST", "/auth/password/sign-up", ["body.email must be defined"]);
    expectSchemaError(await signUp(project, { email: uniqueEmail(), password: PASSWORD, name: "x" }), "POST", "/auth/password/sign-up", [
      "body contains unknown properties: name",
    ]);
    expectSchemaError(
      await signUp(project, { email: uniqueEmail(), password: PASSWORD, verification_callback_url: "not-a-url" }),
      "POST",
      "/auth/password/sign-up",
      ["body.verification_callback_url is not a valid URL"],
    );
  });
});

describe("POST /auth/password/sign-in", () => {
  it("signs in, case-insensitively on the e-mail", async () => {
    const user = await signUpUser(server, project, uniqueEmail("MixedCase"));
    for (const email of [user.email, user.email.toUpperCase(), user.email.toLowerCase()]) {
      const res = await passwordSignIn(server, project, email);
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
      expect(res.body.user_id).toBe(user.userId);
      expect(res.body.refresh_token).not.toBe(user.refreshToken);
    }
  });

  it("wrong password and unknown e-mail give byte-identical EMAIL_PASSWORD_MISMATCH bodies", async () => {
    const user = await signUpUser(server, project);
    const wrong = await passwordSignIn(server, project, user.email, "not the password");
    const unknown = await passwordSignIn(server, project, uniqueEmail("nobody"), "not the password");
    expectKnownError(wrong, "EMAIL_PASSWORD_MISMATCH", 400);
    expectKnownError(unknown, "EMAIL_PASSWORD_MISMATCH", 400);
    expect(wrong.body).toEqual({ code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." });
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
  });

  it("a user without a password cannot sign in with any password", async () => {
    const email = uniqueEmail("nopw");
    const created = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { primary_email: email, primary_email_auth_enabled: true },
    });
    expect(created.status, created.text).toBe(201);
    expectKnownError(await passwordSignIn(server, project, email, PASSWORD), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("after 20 failures for one account → 429 with Retry-After, even with the right password", async () => {
    const p = await createProject(server);
    const user = await signUpUser(server, p);
    const other = await signUpUser(server, p);
    for (let i = 0; i < 20; i++) {
      const res = await passwordSignIn(server, p, i % 2 ? user.email : user.email.toUpperCase(), `wrong password ${i}`);
      expectKnownError(res, "EMAIL_PASSWORD_MISMATCH", 400);
    }
    for (const password of ["wrong again", PASSWORD]) {
      const limited = await passwordSignIn(server, p, user.email, password);
      expect(limited.status, limited.text).toBe(429);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(limited.headers.get("x-stack-known-error")).toBeNull();
    }
    // Other accounts, and the same address on other projects, are unaffected.
    expect((await passwordSignIn(server, p, other.email)).status).toBe(200);
    expect((await server.request("/users/me", { as: user.as })).status).toBe(200);
  });
});

describe("POST /auth/password/update", () => {
  const update = (as: Project["client"], body: Record<string, unknown>) =>
    server.request("/auth/password/update", { method: "POST", as, body });

  it("changes the password: the old one fails afterwards, the new one works", async () => {
    const user = await signUpUser(server, project);
    const res = await update(user.as, { old_password: PASSWORD, new_password: "a brand new password" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await passwordSignIn(server, project, user.email, PASSWORD), "EMAIL_PASSWORD_MISMATCH", 400);
    expect((await passwordSignIn(server, project, user.email, "a brand new password")).status).toBe(200);
  });

  it("wrong old password → PASSWORD_CONFIRMATION_MISMATCH; nothing changes", async () => {
    const user = await signUpUser(server, project);
    const res = await update(user.as, { old_password: "not my password", new_password: "a brand new password" });
    expectKnownError(res, "PASSWORD_CONFIRMATION_MISMATCH", 400);
    expect(res.body.error).toBe("Passwords do not match.");
    expect((await passwordSignIn(server, project, user.email, PASSWORD)).status).toBe(200);
    expectKnownError(await passwordSignIn(server, project, user.email, "a brand new password"), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("new password too short / too long → PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG; nothing changes", async () => {
    const user = await signUpUser(server, project);
    const short = await update(user.as, { old_password: PASSWORD, new_password: "short" });
    expectKnownError(short, "PASSWORD_TOO_SHORT", 400);
    expect(short.body.details).toEqual({ min_length: 8 });
    const long = await update(user.as, { old_password: PASSWORD, new_password: "x".repeat(71) });
    expectKnownError(long, "PASSWORD_TOO_LONG", 400);
    expect(long.body.details).toEqual({ maxLength: 70 });
    expect((await passwordSignIn(server, project, user.email, PASSWORD)).status).toBe(200);
  });

  it("user without password → USER_DOES_NOT_HAVE_PASSWORD", async () => {
    const created = await server.request("/users", { method: "POST", as: project.server, body: { primary_email: uniqueEmail() } });
    const session = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: created.body.id } });
    const as = { ...project.client, accessToken: session.body.access_token };
    expectKnownError(await update(as, { old_password: PASSWORD, new_password: "whatever password" }), "USER_DOES_NOT_HAVE_PASSWORD", 400);
  });

  it("needs a signed-in user and a complete body", async () => {
    expectSchemaError(
      await update(project.client, { old_password: PASSWORD, new_password: "a brand new password" }),
      "POST",
      "/auth/password/update",
      ["auth.user must be defined"],
    );
    const user = await signUpUser(server, project);
    expectSchemaError(await update(user.as, { new_password: "a brand new password" }), "POST", "/auth/password/update", [
      "body.old_password must be defined",
    ]);
  });
});

describe("POST /auth/password/set", () => {
  async function passwordlessUser(body: Record<string, unknown>) {
    const created = await server.request("/users", { method: "POST", as: project.server, body });
    expect(created.status, created.text).toBe(201);
    expect(created.body.has_password).toBe(false);
    const session = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: created.body.id } });
    expect(session.status, session.text).toBe(200);
    return { id: created.body.id as string, as: { ...project.client, accessToken: session.body.access_token as string } };
  }
  const set = (as: Project["client"], password: string) => server.request("/auth/password/set", { method: "POST", as, body: { password } });

  it("sets a password for a user created without one", async () => {
    const email = uniqueEmail("setpw");
    const user = await passwordlessUser({ primary_email: email });
    const res = await set(user.as, "my first password");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.has_password).toBe(true);
    // The password is real: update with it as the old one succeeds.
    const upd = await server.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: "my first password", new_password: "my second password" },
    });
    expect(upd.status, upd.text).toBe(200);
  });

  it("with the e-mail used for sign-in, the user can then sign in with it", async () => {
    const email = uniqueEmail("setpw-auth");
    const user = await passwordlessUser({ primary_email: email, primary_email_auth_enabled: true });
    expectKnownError(await passwordSignIn(server, project, email, "my first password"), "EMAIL_PASSWORD_MISMATCH", 400);
    expect((await set(user.as, "my first password")).status).toBe(200);
    const signIn = await passwordSignIn(server, project, email, "my first password");
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.body.user_id).toBe(user.id);
  });

  it("enables the primary e-mail for sign-in when it was not, so the new password works", async () => {
    const email = uniqueEmail("setpw-enable");
    const user = await passwordlessUser({ primary_email: email });
    expect((await set(user.as, "my first password")).status).toBe(200);
    const signIn = await passwordSignIn(server, project, email, "my first password");
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.body.user_id).toBe(user.id);
  });

  it("a user who already has a password → 400, password unchanged", async () => {
    const user = await signUpUser(server, project);
    expectPlainError(await set(user.as, "another password"), 400);
    expect((await passwordSignIn(server, project, user.email, PASSWORD)).status).toBe(200);
    expectKnownError(await passwordSignIn(server, project, user.email, "another password"), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("too short → PASSWORD_TOO_SHORT and no password is set", async () => {
    const user = await passwordlessUser({ primary_email: uniqueEmail() });
    const res = await set(user.as, "short");
    expectKnownError(res, "PASSWORD_TOO_SHORT", 400);
    expect((await server.request("/users/me", { as: user.as })).body.has_password).toBe(false);
  });

  it("needs a signed-in user", async () => {
    expectSchemaError(await set(project.client, "my first password"), "POST", "/auth/password/set", ["auth.user must be defined"]);
  });
});
