/**
 * TOTP two-factor: every sign-in path of a user with a secret stops at
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED, and /auth/mfa/sign-in finishes it
 * (see @latchkey/shared api/mfa.ts). Mail goes through a real SMTP peer.
 */
import { MFA_ATTEMPT_EXPIRATION_MILLIS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../src/db/schema/index.ts";
import { sealLegacyTotpSecrets } from "../src/domain/auth/mfa/seal-legacy-secrets.ts";
import {
  createProject,
  expectSchemaErrorIncluding,
  jwtPayload,
  PASSWORD,
  passwordSignIn,
  signUpUser,
  uniqueEmail,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { CALLBACK_URL, linkIn, type MailingServer, mailingWithProject } from "./mail-fixtures.ts";
import { mfaSignIn, newTotpSecret, signUpTotpUser, totpCode, wrongTotpCode, type TotpUser } from "./mfa-fixtures.ts";

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => ({ mailing, server, project } = await mailingWithProject({ project: { magic_link_enabled: true } })));
afterAll(() => mailing?.close());

const db = () => server.instance.services.db;

/** Signs in with the password and expects the second-factor answer; returns the attempt code. */
async function attemptCodeFor(user: TotpUser, p: Project = project): Promise<string> {
  const res = await passwordSignIn(server, p, user.email);
  expectKnownError(res, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
  const code = res.body.details.attempt_code as string;
  expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
  return code;
}

async function sessionCount(userId: string): Promise<number> {
  const res = await server.request(`/auth/sessions?user_id=${userId}`, { as: project.server });
  expect(res.status, res.text).toBe(200);
  return res.body.items.length;
}

describe("a user with two-factor on", () => {
  it("gets no session from the password alone", async () => {
    const user = await signUpTotpUser(server, project);
    const before = await sessionCount(user.userId);
    await attemptCodeFor(user);
    expect(await sessionCount(user.userId)).toBe(before);
  });

  it("gets no session from a mailed sign-in code alone, and the code is spent", async () => {
    const user = await signUpTotpUser(server, project);
    // Codes go only to verified sign-in addresses.
    await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { primary_email_verified: true } });
    const sent = await server.request("/auth/otp/send-sign-in-code", {
      method: "POST",
      as: project.client,
      body: { email: user.email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const { code } = linkIn(await mailing.mailTo(user.email));
    const first = await server.request("/auth/otp/sign-in", { method: "POST", as: project.client, body: { code } });
    expectKnownError(first, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
    const again = await server.request("/auth/otp/sign-in", { method: "POST", as: project.client, body: { code } });
    expectKnownError(again, "VERIFICATION_CODE_ALREADY_USED", 409);
    const done = await mfaSignIn(server, project, first.body.details.attempt_code, totpCode(user.secretBase64));
    expect(done.status, done.text).toBe(200);
    expect(done.body.user_id).toBe(user.userId);
  });

  it("finishes with a current TOTP code: tokens that work, the attempt code spent", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const res = await mfaSignIn(server, project, code, totpCode(user.secretBase64));
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(res.body).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect(jwtPayload(res.body.access_token)).toMatchObject({ sub: user.userId, requires_totp_mfa: true });
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.status).toBe(200);
    const reuse = await mfaSignIn(server, project, code, totpCode(user.secretBase64, Date.now() + 30_000));
    expectKnownError(reuse, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses a wrong TOTP code and leaves the attempt code usable", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const before = await sessionCount(user.userId);
    const wrong = await mfaSignIn(server, project, code, wrongTotpCode(user.secretBase64));
    expectKnownError(wrong, "INVALID_TOTP_CODE", 400);
    expect(await sessionCount(user.userId)).toBe(before);
    const notDigits = await mfaSignIn(server, project, code, "abcdef");
    expectKnownError(notDigits, "INVALID_TOTP_CODE", 400);
    const right = await mfaSignIn(server, project, code, totpCode(user.secretBase64));
    expect(right.status, right.text).toBe(200);
  });

  it("refuses a TOTP code whose time step was already used by this user", async () => {
    const user = await signUpTotpUser(server, project);
    const totp = totpCode(user.secretBase64);
    const first = await mfaSignIn(server, project, await attemptCodeFor(user), totp);
    expect(first.status, first.text).toBe(200);
    const replay = await mfaSignIn(server, project, await attemptCodeFor(user), totp);
    expectKnownError(replay, "INVALID_TOTP_CODE", 400);
    // The next step's code is fine.
    const next = await mfaSignIn(server, project, await attemptCodeFor(user), totpCode(user.secretBase64, Date.now() + 30_000));
    expect(next.status, next.text).toBe(200);
  });

  it("accepts the previous step's code (clock drift) but not older ones", async () => {
    const user = await signUpTotpUser(server, project);
    const [older, previous] = [await attemptCodeFor(user), await attemptCodeFor(user)];
    const clock = server.clock;
    try {
      // The middle of the next step, held still: no step boundary falls between making a code and checking it.
      clock.freeze(Math.floor(clock.now() / 30_000) * 30_000 + 45_000);
      const twoStepsBack = await mfaSignIn(server, project, older, totpCode(user.secretBase64, clock.now() - 60_000));
      expectKnownError(twoStepsBack, "INVALID_TOTP_CODE", 400);
      const oneStepBack = await mfaSignIn(server, project, previous, totpCode(user.secretBase64, clock.now() - 30_000));
      expect(oneStepBack.status, oneStepBack.text).toBe(200);
    } finally {
      clock.resume();
    }
  });

  it("leads nowhere once the user is deleted", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status, deleted.text).toBe(200);
    const res = await mfaSignIn(server, project, code, totpCode(user.secretBase64));
    expectKnownError(res, "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("refuses an attempt code after 5 minutes", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const res = await server.clock.ahead(MFA_ATTEMPT_EXPIRATION_MILLIS + 1000, () =>
      mfaSignIn(server, project, code, totpCode(user.secretBase64, server.clock.now())),
    );
    expectKnownError(res, "VERIFICATION_CODE_EXPIRED", 400);
  });

  it("limits wrong TOTP codes per user, across attempt codes", async () => {
    const user = await signUpTotpUser(server, project);
    for (let i = 0; i < 10; i++) {
      const res = await mfaSignIn(server, project, await attemptCodeFor(user), wrongTotpCode(user.secretBase64));
      expectKnownError(res, "INVALID_TOTP_CODE", 400);
    }
    const limited = await mfaSignIn(server, project, await attemptCodeFor(user), totpCode(user.secretBase64));
    expect(limited.status, limited.text).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("spends an attempt code after 20 submissions, wrong or refused", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const answers: (string | number)[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await mfaSignIn(server, project, code, wrongTotpCode(user.secretBase64));
      answers.push(res.body.code ?? res.status);
    }
    // 10 wrong codes, then the per-user limit; every one counted against the code.
    expect(answers).toEqual([...Array(10).fill("INVALID_TOTP_CODE"), ...Array(10).fill(429)]);
    const last = await mfaSignIn(server, project, code, totpCode(user.secretBase64));
    expectKnownError(last, "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
  });

  it("lets exactly one of two concurrent completions of one attempt code through", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const totp = totpCode(user.secretBase64);
    const answers = await Promise.all([mfaSignIn(server, project, code, totp), mfaSignIn(server, project, code, totp)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await sessionCount(user.userId)).toBe(2);
  });

  it("lets exactly one of two concurrent sign-ins with one TOTP code through", async () => {
    const user = await signUpTotpUser(server, project);
    const [a, b] = [await attemptCodeFor(user), await attemptCodeFor(user)];
    const totp = totpCode(user.secretBase64);
    const answers = await Promise.all([mfaSignIn(server, project, a, totp), mfaSignIn(server, project, b, totp)]);
    expect(answers.map((r) => r.body.code ?? r.status).sort()).toEqual([200, "INVALID_TOTP_CODE"]);
  });

  it("signs in with the password alone once two-factor is turned off", async () => {
    const user = await signUpTotpUser(server, project);
    const off = await server.request("/users/me", { method: "PATCH", as: user.as, body: { totp_secret_base64: null } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.requires_totp_mfa).toBe(false);
    const res = await passwordSignIn(server, project, user.email);
    expect(res.status, res.text).toBe(200);
  });

  it("finishes a sign-in started before two-factor was turned off with the first factor alone", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { totp_secret_base64: null } });
    const res = await mfaSignIn(server, project, code, "000000");
    expect(res.status, res.text).toBe(200);
  });

  it("keeps the secret encrypted at rest", async () => {
    const user = await signUpTotpUser(server, project);
    const [row] = await db().select().from(users).where(eq(users.id, user.userId));
    expect(row!.legacyTotpSecretBase64).toBeNull();
    expect(row!.totpSecretSealed).toBeTruthy();
    expect(row!.totpSecretSealed).not.toContain(user.secretBase64);
    expect(row!.totpSecretSealed).not.toContain(Buffer.from(user.secretBase64, "base64").toString("base64url"));
  });

  it("refuses a secret shorter than 16 bytes (no authenticator could use it), changing nothing", async () => {
    const user = await signUpUser(server, project);
    for (const secret of ["", Buffer.alloc(15, 7).toString("base64")]) {
      const res = await server.request("/users/me", { method: "PATCH", as: user.as, body: { totp_secret_base64: secret } });
      expectSchemaErrorIncluding(res, "body.totp_secret_base64 must be a TOTP secret of at least 16 bytes");
    }
    expect((await passwordSignIn(server, project, user.email)).status).toBe(200);
  });

  it("asks for the second factor of a secret an earlier version stored in plaintext, before it is sealed", async () => {
    const user = await signUpUser(server, project);
    const secretBase64 = newTotpSecret();
    await db().update(users).set({ legacyTotpSecretBase64: secretBase64 }).where(eq(users.id, user.userId));
    const code = await attemptCodeFor({ ...user, secretBase64 });
    const res = await mfaSignIn(server, project, code, totpCode(secretBase64));
    expect(res.status, res.text).toBe(200);
    await sealLegacyTotpSecrets(db(), server.config.serverSecret);
  });

  it("encrypts secrets stored in plaintext by earlier versions at start-up, and they keep working", async () => {
    const user = await signUpUser(server, project);
    const secretBase64 = newTotpSecret();
    await db().update(users).set({ legacyTotpSecretBase64: secretBase64 }).where(eq(users.id, user.userId));
    expect(await sealLegacyTotpSecrets(db(), server.config.serverSecret)).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(users).where(eq(users.id, user.userId));
    expect(row!.legacyTotpSecretBase64).toBeNull();
    expect(row!.totpSecretSealed).toBeTruthy();
    const code = await attemptCodeFor({ ...user, secretBase64 });
    const res = await mfaSignIn(server, project, code, totpCode(secretBase64));
    expect(res.status, res.text).toBe(200);
  });
});

describe("the attempt code", () => {
  it("belongs to its project", async () => {
    const user = await signUpTotpUser(server, project);
    const code = await attemptCodeFor(user);
    const other = await createProject(server);
    const res = await mfaSignIn(server, other, code, totpCode(user.secretBase64));
    expectKnownError(res, "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("is not any other kind of code", async () => {
    const email = uniqueEmail();
    await signUpUser(server, project, email);
    await server.request("/auth/password/send-reset-code", {
      method: "POST",
      as: project.client,
      body: { email, callback_url: CALLBACK_URL },
    });
    const { code } = linkIn(await mailing.mailTo(email));
    const res = await mfaSignIn(server, project, code, "123456");
    expectKnownError(res, "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("is checked for shape: a code of 45 characters, the type totp", async () => {
    const short = await mfaSignIn(server, project, "abc", "123456");
    expectSchemaErrorIncluding(short, "body.code must be exactly 45 characters");
    const sms = await server.request("/auth/mfa/sign-in", {
      method: "POST",
      as: project.client,
      body: { type: "sms", totp: "123456", code: "a".repeat(45) },
    });
    expect(sms.body.code).toBe("SCHEMA_ERROR");
    const extra = await server.request("/auth/mfa/sign-in", {
      method: "POST",
      as: project.client,
      body: { type: "totp", totp: "123456", code: "a".repeat(45), password: PASSWORD },
    });
    expectSchemaErrorIncluding(extra, "body contains unknown properties: password");
  });
});
