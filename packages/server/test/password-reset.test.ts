/** Password reset: send-reset-code, reset/check-code, reset. */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentEmails, verificationCodes } from "../src/db/schema/index.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  PASSWORD,
  passwordSignIn,
  patchProjectConfig,
  refreshWith,
  signUpUser,
  uniqueEmail,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, linkIn, recipients, type MailingServer, mailingWithProject } from "./mail-fixtures.ts";

const MAYBE = { success: "maybe, only if user with e-mail exists" };
const NEW_PASSWORD = "a fresh password after reset";

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => ({ mailing, server, project } = await mailingWithProject()));
afterAll(() => mailing?.close());

const db = () => server.instance.services.db;

const sendReset = (p: Pick<Project, "client">, email: string, options: { as?: Auth; callbackUrl?: string } = {}) =>
  server.request("/auth/password/send-reset-code", {
    method: "POST",
    as: options.as ?? p.client,
    body: { email, callback_url: options.callbackUrl ?? CALLBACK_URL },
  });
const checkCode = (p: Pick<Project, "client">, body: Record<string, unknown>, as: Auth = p.client) =>
  server.request("/auth/password/reset/check-code", { method: "POST", as, body });
const reset = (p: Pick<Project, "client">, body: Record<string, unknown>, as: Auth = p.client) =>
  server.request("/auth/password/reset", { method: "POST", as, body });

/** Asks for a reset of `email` and reads the code out of the message that arrives. */
async function resetCode(p: Pick<Project, "client">, email: string): Promise<string> {
  const res = await sendReset(p, email);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual(MAYBE);
  return linkIn(await mailing.mailTo(email, /reset your password/i)).code;
}

/** Every message the server queued or sent to this address (after sending what is due). */
async function mailsTo(address: string): Promise<number> {
  await server.instance.services.emails.flush();
  const rows = await db()
    .select({ id: sentEmails.id })
    .from(sentEmails)
    .where(sql`${sentEmails.to} @> ${JSON.stringify([address])}::jsonb`);
  return rows.length;
}

async function userView(p: Project, userId: string) {
  const res = await server.request(`/users/${userId}`, { as: p.server });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("the whole flow", () => {
  it("mails a link with the code; check-code does not spend it; reset sets the password, verifies the e-mail, ends every session", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    expect((await userView(project, user.userId)).primary_email_verified).toBe(false);
    // The refresh token works (and its session is now cached) before the reset.
    expect((await refreshWith(server, project, user.refreshToken)).status).toBe(200);

    const sent = await sendReset(project, user.email);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.text).toBe(JSON.stringify(MAYBE));
    const mail = await mailing.mailTo(user.email);
    expect(mail.subject).toContain("Test project");
    expect(mail.subject).toMatch(/reset/i);
    const { link, code } = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe(CALLBACK_URL);

    for (const submitted of [code, code, code.toUpperCase()]) {
      const check = await checkCode(project, { code: submitted });
      expect(check.status, check.text).toBe(200);
      expect(check.body).toEqual({ is_code_valid: true });
    }

    const done = await reset(project, { code, password: NEW_PASSWORD });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ success: true });

    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const sessions = await server.request("/auth/sessions", { as: project.server, query: { user_id: user.userId } });
    expect(sessions.body.items).toEqual([]);
    expect((await userView(project, user.userId)).primary_email_verified).toBe(true);
    expectKnownError(await passwordSignIn(server, project, user.email, PASSWORD), "EMAIL_PASSWORD_MISMATCH", 400);
    const signedIn = await passwordSignIn(server, project, user.email, NEW_PASSWORD);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user_id).toBe(user.userId);

    // Spent: neither endpoint accepts it again.
    expectKnownError(await checkCode(project, { code }), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await reset(project, { code, password: "yet another password" }), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect((await passwordSignIn(server, project, user.email, NEW_PASSWORD)).status).toBe(200);
    // Nobody else was touched.
    expect((await refreshWith(server, project, other.refreshToken)).status).toBe(200);
    expect((await userView(project, other.userId)).primary_email_verified).toBe(false);
  });

  it("works for server and admin access, and with the e-mail typed in another case", async () => {
    const user = await signUpUser(server, project, uniqueEmail("CaseUser"));
    const sent = await sendReset(project, user.email.toUpperCase(), { as: project.server });
    expect(sent.body).toEqual(MAYBE);
    const mail = await mailing.mailTo(user.email);
    // Addressed as the user registered it, not as typed.
    expect(recipients(mail)).toEqual([user.email.toLowerCase()]);
    expect(JSON.stringify(mail.to)).toContain(user.email);
    const { code } = linkIn(mail);
    expect((await checkCode(project, { code }, project.admin)).body).toEqual({ is_code_valid: true });
    const done = await reset(project, { code, password: NEW_PASSWORD }, project.server);
    expect(done.status, done.text).toBe(200);
    expect((await passwordSignIn(server, project, user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await userView(project, user.userId)).primary_email_verified).toBe(true);
  });

  it("an unknown e-mail gets the same answer, and nothing is mailed", async () => {
    const user = await signUpUser(server, project);
    const known = await sendReset(project, user.email);
    const address = uniqueEmail("nobody");
    const unknown = await sendReset(project, address);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    expect(unknown.headers.get("content-type")).toBe(known.headers.get("content-type"));
    expect(await mailsTo(address)).toBe(0);
    expect(await mailsTo(user.email)).toBe(1);
  });

  it("a code mailed to an address that no longer signs in resets nothing", async () => {
    const user = await signUpUser(server, project);
    const code = await resetCode(project, user.email);
    const newEmail = uniqueEmail("moved");
    const patched = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email: newEmail },
    });
    expect(patched.status, patched.text).toBe(200);
    // The old address stays the user's, as a channel that still signs in, until it is told not to.
    const channels = await server.request(`/contact-channels?user_id=${user.userId}`, { as: project.server });
    const old = (channels.body.items as { id: string; value: string; used_for_auth: boolean }[]).find((c) => c.value === user.email);
    expect(old).toMatchObject({ used_for_auth: true });
    const off = await server.request(`/contact-channels/${user.userId}/${old!.id}`, {
      method: "PATCH",
      as: project.server,
      body: { used_for_auth: false },
    });
    expect(off.status, off.text).toBe(200);
    expectKnownError(await reset(project, { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expect((await passwordSignIn(server, project, newEmail, NEW_PASSWORD)).status).toBe(400);
    expect((await passwordSignIn(server, project, newEmail)).status).toBe(200);
  });

  it("one reset ends the user's other reset links", async () => {
    const user = await signUpUser(server, project);
    const first = await resetCode(project, user.email);
    const second = await resetCode(project, user.email);
    expect((await reset(project, { code: second, password: NEW_PASSWORD })).status).toBe(200);
    expectKnownError(await reset(project, { code: first, password: "yet another passphrase" }), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect((await passwordSignIn(server, project, user.email, NEW_PASSWORD)).status).toBe(200);
  });
});

describe("failures", () => {
  it("schema errors", async () => {
    const send = "/auth/password/send-reset-code";
    const bad = (body: Record<string, unknown>) => server.request(send, { method: "POST", as: project.client, body });
    expectSchemaError(await bad({ email: "not-an-email", callback_url: CALLBACK_URL }), "POST", send, ["body.email must be a valid email"]);
    expectSchemaError(await bad({ email: uniqueEmail() }), "POST", send, ["body.callback_url must be defined"]);
    expectSchemaError(await bad({ email: uniqueEmail(), callback_url: "not-a-url" }), "POST", send, [
      "body.callback_url is not a valid URL",
    ]);
    expectSchemaError(await bad({ email: uniqueEmail(), callback_url: CALLBACK_URL, user_id: "me" }), "POST", send, [
      "body contains unknown properties: user_id",
    ]);

    const check = "/auth/password/reset/check-code";
    for (const code of ["a".repeat(44), "a".repeat(46), ""]) {
      expectSchemaError(await checkCode(project, { code }), "POST", check, ["body.code must be exactly 45 characters"]);
    }
    expectSchemaError(await checkCode(project, {}), "POST", check, ["body.code must be defined"]);
    expectSchemaError(await checkCode(project, { code: "a".repeat(45), password: PASSWORD }), "POST", check, [
      "body contains unknown properties: password",
    ]);

    const resetPath = "/auth/password/reset";
    expectSchemaError(await reset(project, { code: "a".repeat(44), password: NEW_PASSWORD }), "POST", resetPath, [
      "body.code must be exactly 45 characters",
    ]);
    expectSchemaError(await reset(project, { code: "a".repeat(45) }), "POST", resetPath, ["body.password must be defined"]);
    expectSchemaError(await reset(project, { code: "a".repeat(45), password: NEW_PASSWORD, email: uniqueEmail() }), "POST", resetPath, [
      "body contains unknown properties: email",
    ]);
  });

  it("needs project access", async () => {
    const res = await server.request("/auth/password/reset", { method: "POST", body: { code: "a".repeat(45), password: NEW_PASSWORD } });
    expectKnownError(res, "ACCESS_TYPE_REQUIRED", 400);
  });

  it("a callback URL off the trusted domains → REDIRECT_URL_NOT_WHITELISTED, nothing mailed", async () => {
    const user = await signUpUser(server, project);
    for (const callbackUrl of ["https://evil.example.net/reset", "javascript:alert(1)"]) {
      const res = await sendReset(project, user.email, { callbackUrl });
      expectKnownError(res, "REDIRECT_URL_NOT_WHITELISTED", 400);
    }
    expect(await mailsTo(user.email)).toBe(0);
    // The project's own domain is trusted.
    const p = await createProject(server, project.owner, { domains: [{ domain: "https://app.example.org", handler_path: "/handler" }] });
    const member = await signUpUser(server, p);
    expect((await sendReset(p, member.email, { callbackUrl: "https://app.example.org/handler/password-reset" })).status).toBe(200);
    const mail = await mailing.mailTo(member.email);
    expect(linkIn(mail, "https://app.example.org/handler/password-reset").code).toHaveLength(45);
  });

  it("credential_enabled false → PASSWORD_AUTHENTICATION_NOT_ENABLED on all three; nothing is spent", async () => {
    const p = await createProject(server, project.owner);
    const user = await signUpUser(server, p);
    const code = await resetCode(p, user.email);
    await patchProjectConfig(server, p, { credential_enabled: false });
    expectKnownError(await sendReset(p, user.email), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expectKnownError(await checkCode(p, { code }), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expectKnownError(await reset(p, { code, password: NEW_PASSWORD }, p.server), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    expect(await mailsTo(user.email)).toBe(1);
    await patchProjectConfig(server, p, { credential_enabled: true });
    expect((await passwordSignIn(server, p, user.email, PASSWORD)).status).toBe(200);
    expect((await reset(p, { code, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("an expired code → VERIFICATION_CODE_EXPIRED; the password stays", async () => {
    const user = await signUpUser(server, project);
    const code = await resetCode(project, user.email);
    await db()
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(verificationCodes.codeHash, sha256Hex(code)));
    expectKnownError(await checkCode(project, { code }), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await reset(project, { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_EXPIRED", 400);
    expect((await passwordSignIn(server, project, user.email, PASSWORD)).status).toBe(200);
    expect((await refreshWith(server, project, user.refreshToken)).status).toBe(200);
  });

  it("a code of another flow, of another project, or made up → VERIFICATION_CODE_NOT_FOUND", async () => {
    // An e-mail verification code, mailed at sign-up.
    const email = uniqueEmail("verify");
    const signUp = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: project.client,
      body: { email, password: PASSWORD, verification_callback_url: CALLBACK_URL },
    });
    expect(signUp.status, signUp.text).toBe(200);
    const verification = linkIn(await mailing.mailTo(email, /verify/i)).code;
    // A reset code of another project's user.
    const p = await createProject(server, project.owner);
    const elsewhere = await signUpUser(server, p);
    const foreign = await resetCode(p, elsewhere.email);

    for (const code of [verification, foreign, "0".repeat(45)]) {
      expectKnownError(await checkCode(project, { code }), "VERIFICATION_CODE_NOT_FOUND", 404);
      expectKnownError(await reset(project, { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
    }
    expect((await passwordSignIn(server, project, email, PASSWORD)).status).toBe(200);
    // The other project's code still works there.
    expect((await reset(p, { code: foreign, password: NEW_PASSWORD })).status).toBe(200);
    expect((await passwordSignIn(server, p, elsewhere.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("a user deleted since the code was sent → VERIFICATION_CODE_NOT_FOUND", async () => {
    const user = await signUpUser(server, project);
    const code = await resetCode(project, user.email);
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status, deleted.text).toBe(200);
    expectKnownError(await reset(project, { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("a too-short or too-long password → the password-length error, and the code still works afterwards", async () => {
    const user = await signUpUser(server, project);
    const code = await resetCode(project, user.email);
    const short = await reset(project, { code, password: "1234567" });
    expectKnownError(short, "PASSWORD_TOO_SHORT", 400);
    expect(short.body).toEqual({
      code: "PASSWORD_TOO_SHORT",
      details: { min_length: 8 },
      error: "Password too short. Minimum length is 8.",
    });
    const long = await reset(project, { code, password: "p".repeat(71) });
    expectKnownError(long, "PASSWORD_TOO_LONG", 400);
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", details: { maxLength: 70 }, error: "Password too long. Maximum length is 70." });
    expect((await passwordSignIn(server, project, user.email, PASSWORD)).status).toBe(200);
    expect((await checkCode(project, { code })).body).toEqual({ is_code_valid: true });
    expect((await reset(project, { code, password: "p".repeat(70) })).status).toBe(200);
    expect((await passwordSignIn(server, project, user.email, "p".repeat(70))).status).toBe(200);
  });

  it("two concurrent resets with one code: exactly one succeeds", async () => {
    const user = await signUpUser(server, project);
    const code = await resetCode(project, user.email);
    const passwords = ["first concurrent password", "second concurrent password"];
    const results = await Promise.all(passwords.map((password) => reset(project, { code, password })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status !== 200)!;
    expectKnownError(loser, "VERIFICATION_CODE_ALREADY_USED", 409);
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    const beaten = passwords.find((p) => p !== winner)!;
    expect((await passwordSignIn(server, project, user.email, winner)).status).toBe(200);
    expectKnownError(await passwordSignIn(server, project, user.email, beaten), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("per recipient: the 6th request within 10 minutes → 429 with Retry-After, with or without an account", async () => {
    const p = await createProject(server, project.owner);
    const user = await signUpUser(server, p);
    const nobody = uniqueEmail("ghost");
    for (const address of [user.email, nobody]) {
      for (let i = 0; i < 5; i++) {
        const res = await sendReset(p, i % 2 ? address.toUpperCase() : address);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual(MAYBE);
      }
      const limited = await sendReset(p, address);
      expectPlainError(limited, 429);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
    }
    expect(await mailsTo(user.email)).toBe(5);
    expect(await mailsTo(nobody)).toBe(0);
    // Other addresses, and the same address on another project, are not limited.
    expect((await sendReset(p, uniqueEmail())).status).toBe(200);
    expect((await sendReset(project, user.email)).status).toBe(200);
  });
});
