/**
 * One-time-code sign-in (see @latchkey/shared api/auth.ts): the mailed link
 * and the typed code, new and existing users, and every way it must refuse.
 * Mail goes through a real SMTP peer.
 */
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verificationCodes } from "../src/db/schema/index.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  patchProjectConfig,
  signUpUser,
  uniqueEmail,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, linkIn, recipients, type MailingServer, mailingWithProject } from "./mail-fixtures.ts";

const SEND = "/auth/otp/send-sign-in-code";
const SIGN_IN = "/auth/otp/sign-in";
const MAGIC_LINK = { magic_link_enabled: true };

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => ({ mailing, server, project } = await mailingWithProject({ project: MAGIC_LINK })));
afterAll(() => mailing?.close());

const sendCode = (p: Pick<Project, "client">, email: string, as: Auth = p.client, callbackUrl = CALLBACK_URL) =>
  server.request(SEND, { method: "POST", as, body: { email, callback_url: callbackUrl } });

const signInWith = (p: Pick<Project, "client">, code: string, as: Auth = p.client) =>
  server.request(SIGN_IN, { method: "POST", as, body: { code } });

interface Mailed {
  nonce: string;
  /** The whole code, from the link. */
  code: string;
  /** The 6 characters the e-mail shows. */
  otp: string;
}

/** Asks for a code to `email` and reads it out of the message that arrives. */
async function mailedCode(p: Pick<Project, "client">, email: string, as: Auth = p.client): Promise<Mailed> {
  const res = await sendCode(p, email, as);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(["nonce"]);
  const mail = await mailing.mailTo(email);
  const { code } = linkIn(mail);
  const otp = /: ([0-9A-Z]{6})$/.exec(mail.subject ?? "")?.[1];
  expect(otp, mail.subject).toBeTruthy();
  return { nonce: res.body.nonce, code, otp: otp! };
}

/** Flushes the queue, then: did anything reach `email`? */
async function anythingMailedTo(email: string): Promise<boolean> {
  await server.instance.services.emails.flush();
  return mailing.smtp.inbox.some((m) => recipients(m).includes(email.toLowerCase()));
}

async function usersWithEmail(p: Project, email: string): Promise<{ id: string }[]> {
  const res = await server.request("/users", { as: p.server, query: { query: email } });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

async function me(p: Pick<Project, "client">, accessToken: string) {
  const res = await server.request("/users/me", { as: { ...p.client, accessToken } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function codeRow(code: string) {
  const [row] = await server.instance.services.db
    .select()
    .from(verificationCodes)
    .where(eq(verificationCodes.codeHash, sha256Hex(code)));
  return row!;
}

async function verifiedPasswordUser(p: Project, email = uniqueEmail("existing")) {
  const user = await signUpUser(server, p, email);
  const patched = await server.request(`/users/${user.userId}`, { method: "PATCH", as: p.server, body: { primary_email_verified: true } });
  expect(patched.status, patched.text).toBe(200);
  return user;
}

describe("sign-in with a mailed code", () => {
  it("mails the code as a link and 6 characters; a new address signs up through the link", async () => {
    const email = uniqueEmail("link");
    const res = await sendCode(project, email);
    expect(res.status, res.text).toBe(200);
    expect(res.body.nonce).toMatch(/^[0-9a-hjkmnp-tv-z]{39}$/);
    const mail = await mailing.mailTo(email);
    const { link, code } = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe(CALLBACK_URL);
    expect(code.slice(6)).toBe(res.body.nonce);
    const otp = code.slice(0, 6).toUpperCase();
    expect(mail.subject).toContain("Test project");
    expect(mail.subject).toContain(otp);
    expect(mail.text).toContain(otp);
    expect(mail.html).toContain(otp);

    const signedIn = await signInWith(project, code);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(Object.keys(signedIn.body)).toEqual(["access_token", "refresh_token", "is_new_user", "user_id"]);
    expect(signedIn.body.is_new_user).toBe(true);
    expect(signedIn.body.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    const user = await me(project, signedIn.body.access_token);
    expect(user).toMatchObject({
      id: signedIn.body.user_id,
      primary_email: email,
      primary_email_verified: true,
      otp_auth_enabled: true,
      has_password: false,
      is_anonymous: false,
      // New projects do not create personal teams.
      selected_team_id: null,
    });
    expect(await usersWithEmail(project, email)).toHaveLength(1);
  });

  it("signs a new address up with the typed code plus the nonce, in upper or lower case", async () => {
    for (const caseOf of [(s: string) => s.toUpperCase(), (s: string) => s.toLowerCase()]) {
      const email = uniqueEmail("typed");
      const { otp, nonce } = await mailedCode(project, email);
      const res = await signInWith(project, caseOf(otp + nonce));
      expect(res.status, res.text).toBe(200);
      expect(res.body.is_new_user).toBe(true);
      expect(await me(project, res.body.access_token)).toMatchObject({
        id: res.body.user_id,
        primary_email: email,
        primary_email_verified: true,
        otp_auth_enabled: true,
      });
    }
  });

  it("two codes asked for a new address before either is used: the first signs up, the second signs the same user in", async () => {
    const email = uniqueEmail("twice");
    const first = await mailedCode(project, email);
    const second = await mailedCode(project, email);
    const signedUp = await signInWith(project, first.code);
    expect(signedUp.status, signedUp.text).toBe(200);
    expect(signedUp.body.is_new_user).toBe(true);
    const signedIn = await signInWith(project, second.otp + second.nonce);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ is_new_user: false, user_id: signedUp.body.user_id });
    expect(await me(project, signedIn.body.access_token)).toMatchObject({ id: signedUp.body.user_id, primary_email: email });
    // Each code is still single-use.
    expectKnownError(await signInWith(project, second.code), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await usersWithEmail(project, email)).toHaveLength(1);
  });

  it("a second code for a new address still signs in after sign-up closed: the address now has its user", async () => {
    const closing = await createProject(server, undefined, MAGIC_LINK);
    const email = uniqueEmail("twice-closed");
    const first = await mailedCode(closing, email);
    const second = await mailedCode(closing, email);
    const signedUp = await signInWith(closing, first.code);
    expect(signedUp.status, signedUp.text).toBe(200);
    await patchProjectConfig(server, closing, { sign_up_enabled: false });
    const signedIn = await signInWith(closing, second.code);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ is_new_user: false, user_id: signedUp.body.user_id });
  });

  it("signs an existing password user in (any case of the address), keeping their id", async () => {
    const user = await verifiedPasswordUser(project);
    const { code } = await mailedCode(project, user.email.toUpperCase());
    const res = await signInWith(project, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ is_new_user: false, user_id: user.userId });
    expect(await me(project, res.body.access_token)).toMatchObject({ id: user.userId, primary_email: user.email, has_password: true });
    expect(await usersWithEmail(project, user.email)).toHaveLength(1);
  });

  it("verifies the address of the user it signs in", async () => {
    const user = await verifiedPasswordUser(project);
    const { code } = await mailedCode(project, user.email);
    // The flag was cleared after the code went out; the code proves the inbox anew.
    const unverify = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email_verified: false },
    });
    expect(unverify.body.primary_email_verified).toBe(false);
    const res = await signInWith(project, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ is_new_user: false, user_id: user.userId });
    expect((await me(project, res.body.access_token)).primary_email_verified).toBe(true);
    const read = await server.request(`/users/${user.userId}`, { as: project.server });
    expect(read.body.primary_email_verified).toBe(true);
  });

  it("upgrades the anonymous caller in place, and names their personal team after the address", async () => {
    const p = await createProject(server, undefined, { ...MAGIC_LINK, create_team_on_sign_up: true });
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: p.client });
    expect(anon.status, anon.text).toBe(200);
    const asAnon: Auth = { ...p.client, accessToken: anon.body.access_token, allowAnonymous: true };
    const email = uniqueEmail("anon");
    const { code } = await mailedCode(p, email, asAnon);
    const res = await signInWith(p, code, asAnon);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ is_new_user: true, user_id: anon.body.user_id });
    const user = await me(p, res.body.access_token);
    expect(user).toMatchObject({
      id: anon.body.user_id,
      is_anonymous: false,
      primary_email: email,
      primary_email_verified: true,
      otp_auth_enabled: true,
    });
    expect(user.selected_team.display_name).toBe(`${email}'s Team`);
  });

  it("gives a new user a personal team when the project asks for one", async () => {
    const p = await createProject(server, undefined, { ...MAGIC_LINK, create_team_on_sign_up: true });
    const email = uniqueEmail("team");
    const { code } = await mailedCode(p, email);
    const res = await signInWith(p, code);
    expect(res.status, res.text).toBe(200);
    expect((await me(p, res.body.access_token)).selected_team.display_name).toBe(`${email}'s Team`);
  });

  it("works for server and admin callers too", async () => {
    for (const as of [project.server, project.admin]) {
      const email = uniqueEmail("keys");
      const { code } = await mailedCode(project, email, as);
      const res = await signInWith(project, code, as);
      expect(res.status, res.text).toBe(200);
      expect(res.body.is_new_user).toBe(true);
    }
  });
});

describe("refusals", () => {
  it("magic links off → 403 plain text on both endpoints, nothing mailed", async () => {
    const off = await createProject(server);
    const email = uniqueEmail("off");
    expectPlainError(await sendCode(off, email), 403, /not enabled/);
    expect(await anythingMailedTo(email)).toBe(false);
    // A code from a project where it is on does not get past the switch either.
    const { code } = await mailedCode(project, uniqueEmail("on"));
    expectPlainError(await signInWith(off, code), 403, /not enabled/);
    // Turned off after the code went out: refused, and the code stays good for when it is back on.
    const p = await createProject(server, undefined, MAGIC_LINK);
    const later = await mailedCode(p, uniqueEmail("later"));
    await patchProjectConfig(server, p, { magic_link_enabled: false });
    expectPlainError(await signInWith(p, later.code), 403);
    await patchProjectConfig(server, p, { magic_link_enabled: true });
    expect((await signInWith(p, later.code)).status).toBe(200);
  });

  it("needs an access type", async () => {
    const res = await server.request(SEND, { method: "POST", body: { email: uniqueEmail(), callback_url: CALLBACK_URL } });
    expectKnownError(res, "ACCESS_TYPE_REQUIRED", 400);
  });

  it("sign-up closed: a new address → SIGN_UP_NOT_ENABLED for a client and nothing is mailed; existing users and servers still get codes", async () => {
    const closed = await createProject(server, undefined, { ...MAGIC_LINK, sign_up_enabled: false });
    const email = uniqueEmail("closed");
    expectKnownError(await sendCode(closed, email), "SIGN_UP_NOT_ENABLED", 400);
    expect(await anythingMailedTo(email)).toBe(false);
    expect(await usersWithEmail(closed, email)).toHaveLength(0);

    const viaServer = await mailedCode(closed, email, closed.server);
    const created = await signInWith(closed, viaServer.code, closed.server);
    expect(created.status, created.text).toBe(200);
    expect(created.body.is_new_user).toBe(true);

    // Now the address has a verified account: a client may sign in with it.
    const again = await mailedCode(closed, email);
    const signedIn = await signInWith(closed, again.code);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ is_new_user: false, user_id: created.body.user_id });
  });

  it("sign-up closed after a code for a new address went out → SIGN_UP_NOT_ENABLED, and the code is not spent", async () => {
    const p = await createProject(server, undefined, MAGIC_LINK);
    const email = uniqueEmail("closing");
    const { code } = await mailedCode(p, email);
    await patchProjectConfig(server, p, { sign_up_enabled: false });
    expectKnownError(await signInWith(p, code), "SIGN_UP_NOT_ENABLED", 400);
    expect(await usersWithEmail(p, email)).toHaveLength(0);
    expect((await codeRow(code)).usedAt).toBeNull();
    expect((await signInWith(p, code, p.server)).status).toBe(200);
  });

  it("an address someone signs in with but never verified → USER_EMAIL_ALREADY_EXISTS (would work if verified), nothing mailed", async () => {
    const user = await signUpUser(server, project, uniqueEmail("unverified"));
    for (const email of [user.email, user.email.toUpperCase()]) {
      const res = await sendCode(project, email);
      expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
      expect(res.body.details).toEqual({ email: email.toLowerCase(), would_work_if_email_was_verified: true });
    }
    expect(await anythingMailedTo(user.email)).toBe(false);
  });

  it("a callback URL off the trusted domains → REDIRECT_URL_NOT_WHITELISTED, nothing mailed", async () => {
    const email = uniqueEmail("untrusted");
    expectKnownError(
      await sendCode(project, email, project.client, "https://evil.example.net/callback"),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    const strict = await createProject(server, undefined, { ...MAGIC_LINK, allow_localhost: false });
    expectKnownError(await sendCode(strict, email), "REDIRECT_URL_NOT_WHITELISTED", 400);
    expect(await anythingMailedTo(email)).toBe(false);
  });

  it("schema errors: bad e-mail or URL, missing fields, a code of the wrong length, unknown keys", async () => {
    const post = (path: string, body: unknown) => server.request(path, { method: "POST", as: project.client, body });
    expectSchemaError(await post(SEND, { email: "not-an-email", callback_url: CALLBACK_URL }), "POST", SEND, [
      "body.email must be a valid email",
    ]);
    expectSchemaError(await post(SEND, { email: uniqueEmail(), callback_url: "not a url" }), "POST", SEND, [
      "body.callback_url contains spaces",
    ]);
    expectSchemaError(await post(SEND, { email: uniqueEmail() }), "POST", SEND, ["body.callback_url must be defined"]);
    expectSchemaError(await post(SEND, { email: uniqueEmail(), callback_url: CALLBACK_URL, extra: 1 }), "POST", SEND, [
      "body contains unknown properties: extra",
    ]);
    for (const code of ["abc123", "a".repeat(44), "a".repeat(46)]) {
      expectSchemaError(await post(SIGN_IN, { code }), "POST", SIGN_IN, ["body.code must be exactly 45 characters"]);
    }
    expectSchemaError(await post(SIGN_IN, {}), "POST", SIGN_IN, ["body.code must be defined"]);
    expectSchemaError(await post(SIGN_IN, { code: "a".repeat(45), email: "x@example.com" }), "POST", SIGN_IN, [
      "body contains unknown properties: email",
    ]);
  });

  it("a used code → VERIFICATION_CODE_ALREADY_USED, whether as link or typed", async () => {
    const { code, otp, nonce } = await mailedCode(project, uniqueEmail("used"));
    expect((await signInWith(project, code)).status).toBe(200);
    expectKnownError(await signInWith(project, code), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await signInWith(project, otp + nonce), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("an unknown code → VERIFICATION_CODE_NOT_FOUND", async () => {
    expectKnownError(await signInWith(project, "0".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("an expired code → VERIFICATION_CODE_EXPIRED, and no user", async () => {
    const email = uniqueEmail("expired");
    const { code } = await mailedCode(project, email);
    await server.instance.services.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.codeHash, sha256Hex(code)));
    expectKnownError(await signInWith(project, code), "VERIFICATION_CODE_EXPIRED", 400);
    expect(await usersWithEmail(project, email)).toHaveLength(0);
  });

  it(`${VERIFICATION_CODE_MAX_ATTEMPTS} wrong typed codes with the right nonce, then the right one → VERIFICATION_CODE_MAX_ATTEMPTS_REACHED`, async () => {
    const email = uniqueEmail("guess");
    const { otp, nonce } = await mailedCode(project, email);
    const guesses = new Set<string>();
    for (let n = 0; guesses.size < VERIFICATION_CODE_MAX_ATTEMPTS; n++) {
      const guess = n.toString(10).padStart(6, "0");
      if (guess !== otp) guesses.add(guess);
    }
    for (const guess of guesses) {
      expectKnownError(await signInWith(project, guess + nonce), "VERIFICATION_CODE_NOT_FOUND", 404);
    }
    expectKnownError(await signInWith(project, otp + nonce), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
    expect(await usersWithEmail(project, email)).toHaveLength(0);
  });

  it("concurrent sign-ins with one code: exactly one succeeds, one user exists", async () => {
    const email = uniqueEmail("race");
    const { code } = await mailedCode(project, email);
    const results = await Promise.all(Array.from({ length: 5 }, () => signInWith(project, code)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok, results.map((r) => r.text).join("\n")).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, "VERIFICATION_CODE_ALREADY_USED", 409);
    const found = await usersWithEmail(project, email);
    expect(found.map((u) => u.id)).toEqual([ok[0]!.body.user_id]);
  });

  it("different codes for one new address used at once: all sign in, one user is created", async () => {
    const email = uniqueEmail("race-codes");
    const codes = [await mailedCode(project, email), await mailedCode(project, email), await mailedCode(project, email)];
    const results = await Promise.all(codes.map(({ code }) => signInWith(project, code)));
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(results.filter((r) => r.body.is_new_user)).toHaveLength(1);
    const found = await usersWithEmail(project, email);
    expect(found).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.user_id))).toEqual(new Set([found[0]!.id]));
  });

  it("an address taken after the code went out → USER_EMAIL_ALREADY_EXISTS; the code is not spent", async () => {
    const email = uniqueEmail("taken");
    const { code } = await mailedCode(project, email);
    // Someone signs up with the address meanwhile: the code must not hand that account over.
    const squatter = await signUpUser(server, project, email);
    const res = await signInWith(project, code);
    expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect((await codeRow(code)).usedAt).toBeNull();
    expect((await usersWithEmail(project, email)).map((u) => u.id)).toEqual([squatter.userId]);
  });

  it("a code for a user who no longer signs in with that address → VERIFICATION_CODE_NOT_FOUND", async () => {
    const user = await verifiedPasswordUser(project);
    const { code } = await mailedCode(project, user.email);
    // (A moved primary e-mail would keep the old address as a channel that still signs in.)
    const moved = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email_auth_enabled: false },
    });
    expect(moved.status, moved.text).toBe(200);
    expectKnownError(await signInWith(project, code), "VERIFICATION_CODE_NOT_FOUND", 404);
    // Nobody new was signed up with the address either.
    expect((await usersWithEmail(project, user.email)).map((u: { id: string }) => u.id)).toEqual([user.userId]);
  });

  it("a code from one project does not work on another", async () => {
    const other = await createProject(server, undefined, MAGIC_LINK);
    const email = uniqueEmail("cross");
    const { code, otp, nonce } = await mailedCode(project, email);
    expectKnownError(await signInWith(other, code), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await signInWith(other, otp + nonce), "VERIFICATION_CODE_NOT_FOUND", 404);
    expect(await usersWithEmail(other, email)).toHaveLength(0);
    const res = await signInWith(project, code);
    expect(res.status, res.text).toBe(200);
  });

  it("the 6th code to one address within 10 minutes → 429 with Retry-After, not mailed", async () => {
    const email = uniqueEmail("flood");
    for (let i = 0; i < 5; i++) {
      // The limit counts the address, whatever its case.
      const res = await sendCode(project, i % 2 ? email.toUpperCase() : email);
      expect(res.status, res.text).toBe(200);
      await mailing.mailTo(email);
    }
    const refused = await sendCode(project, email);
    expectPlainError(refused, 429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await server.instance.services.emails.flush();
    expect(mailing.smtp.inbox.filter((m) => recipients(m).includes(email)).length).toBe(5);
    // Another project's users are not affected.
    const other = await createProject(server, undefined, MAGIC_LINK);
    expect((await sendCode(other, email)).status).toBe(200);
  });
});
