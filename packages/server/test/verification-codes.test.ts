/** One-time codes: digests only, expiry, use-once, attempts shared by nonce, and races. */
import { KnownErrors, VERIFICATION_CODE_MAX_ATTEMPTS } from "@latchkey/shared";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verificationCodes } from "../src/db/schema/index.ts";
import { deleteExpiredCodes, EXPIRED_CODE_RETENTION_MILLIS } from "../src/domain/codes/expired-codes.ts";
import { checkCode, createCode, splitSignInCode, useCode, type CodeScope } from "../src/domain/codes/verification-codes.ts";
import { createProject } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let scope: CodeScope;
let otherProjectScope: CodeScope;
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await createTestServer();
  const [a, b] = await Promise.all([createProject(server), createProject(server)]);
  scope = { projectId: a.id, branchId: "main", purpose: "password_reset" };
  otherProjectScope = { ...scope, projectId: b.id };
});
afterAll(() => server?.close());

const db = () => server.instance.services.db;
/** The server's codes and clock, as the domain takes them. */
const codes = () => server.instance.services;
/** `millis` from now on the server's clock. */
const inMillis = (millis: number) => new Date(server.clock.now() + millis);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Another code with the same nonce (last 39 characters): what a wrong guess of a typed sign-in code is. */
function sameNonceGuess(code: string, n: number): string {
  const prefix = n
    .toString(32)
    .padStart(6, "0")
    .replace(/[ilou]/g, "0");
  return prefix === code.slice(0, 6) ? `zzzzzz${code.slice(6)}` : `${prefix}${code.slice(6)}`;
}

describe("verification codes", () => {
  it("are 45 Crockford base32 characters, stored only as digests", async () => {
    const { code } = await createCode(db(), scope, { userId: "u1" }, inMillis(HOUR));
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const rows = await db().execute(sql`select * from verification_codes`);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(code.slice(6));
  });

  it("give their data once; the second use is VERIFICATION_CODE_ALREADY_USED", async () => {
    const { code } = await createCode(db(), scope, { userId: "u1", email: "a@example.com" }, inMillis(HOUR));
    expect(await useCode(codes(), scope, code)).toEqual({ userId: "u1", email: "a@example.com" });
    expect(await rejection(useCode(codes(), scope, code))).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });

  it("are spent together with their effect: when the effect fails, the code stays usable", async () => {
    const { code } = await createCode(db(), scope, { n: 2 }, inMillis(HOUR));
    const failure = new Error("effect failed");
    expect(await rejection(useCode(codes(), scope, code, async () => Promise.reject(failure)))).toBe(failure);
    expect(await useCode(codes(), scope, code, async (_tx, data: { n: number }) => data.n + 1)).toBe(3);
    expect(await rejection(useCode(codes(), scope, code))).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });

  it("are case-insensitive", async () => {
    const { code } = await createCode(db(), scope, { n: 1 }, inMillis(HOUR));
    expect(await useCode(codes(), scope, code.toUpperCase())).toEqual({ n: 1 });
  });

  it("are not found when unknown, of another purpose or another project, or of the wrong length", async () => {
    const { code } = await createCode(db(), scope, {}, inMillis(HOUR));
    expect(await rejection(useCode(codes(), { ...scope, purpose: "otp_sign_in" }, code))).toBeInstanceOf(
      KnownErrors.VerificationCodeNotFound,
    );
    expect(await rejection(useCode(codes(), otherProjectScope, code))).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    expect(await rejection(useCode(codes(), scope, "0".repeat(45)))).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    expect(await rejection(useCode(codes(), scope, code.slice(1)))).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    // None of that used it up.
    expect(await useCode(codes(), scope, code)).toEqual({});
  });

  it("expire: VERIFICATION_CODE_EXPIRED, checked before whether they were used", async () => {
    const { code } = await createCode(db(), scope, {}, inMillis(HOUR));
    await useCode(codes(), scope, code);
    server.clock.advance(HOUR);
    expect(await rejection(useCode(codes(), scope, code))).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
    const expired = await createCode(db(), scope, {}, inMillis(-1000));
    expect(await rejection(checkCode(codes(), scope, expired.code))).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
  });

  it("can be checked without being used", async () => {
    const { code } = await createCode(db(), scope, { k: "v" }, inMillis(HOUR));
    expect(await checkCode(codes(), scope, code)).toEqual({ k: "v" });
    expect(await checkCode(codes(), scope, code)).toEqual({ k: "v" });
    expect(await useCode(codes(), scope, code)).toEqual({ k: "v" });
    expect(await rejection(checkCode(codes(), scope, code))).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });

  it(`count every submission sharing a nonce: ${VERIFICATION_CODE_MAX_ATTEMPTS} are looked at, the next is refused even with the right code`, async () => {
    const lucky = await createCode(db(), scope, { which: "lucky" }, inMillis(HOUR));
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS - 1; i++) {
      expect(await rejection(useCode(codes(), scope, sameNonceGuess(lucky.code, i)))).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    }
    // 19 wrong guesses, then the right code as the 20th submission: accepted.
    expect(await useCode(codes(), scope, lucky.code)).toEqual({ which: "lucky" });

    const locked = await createCode(db(), scope, { which: "locked" }, inMillis(HOUR));
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS; i++) await rejection(useCode(codes(), scope, sameNonceGuess(locked.code, i)));
    expect(await rejection(useCode(codes(), scope, locked.code))).toBeInstanceOf(KnownErrors.VerificationCodeMaxAttemptsReached);
  });

  it("report used and expired before too many attempts", async () => {
    const used = await createCode(db(), scope, {}, inMillis(HOUR));
    await useCode(codes(), scope, used.code);
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS + 1; i++) await rejection(useCode(codes(), scope, sameNonceGuess(used.code, i)));
    expect(await rejection(useCode(codes(), scope, used.code))).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    const expired = await createCode(db(), scope, {}, inMillis(-1000));
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS + 1; i++) await rejection(useCode(codes(), scope, sameNonceGuess(expired.code, i)));
    expect(await rejection(useCode(codes(), scope, expired.code))).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
  });

  it("do not count guesses made in another project", async () => {
    const { code } = await createCode(db(), scope, { mine: true }, inMillis(HOUR));
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS + 1; i++)
      await rejection(useCode(codes(), otherProjectScope, sameNonceGuess(code, i)));
    expect(await useCode(codes(), scope, code)).toEqual({ mine: true });
  });

  it("two (or ten) concurrent uses of one code: exactly one succeeds", async () => {
    const { code } = await createCode(db(), scope, { once: true }, inMillis(HOUR));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => useCode(codes(), scope, code)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    }
  });

  it("split into the 6 characters a user types (shown upper-case) and the nonce the client keeps", () => {
    const code = "abcdefghjkmnpqrstvwxyz0123456789abcdefghjkmnp";
    const { otp, nonce } = splitSignInCode(code);
    expect(otp).toBe("ABCDEF");
    expect(nonce).toHaveLength(39);
    expect(otp.toLowerCase() + nonce).toBe(code);
  });
});

describe("housekeeping", () => {
  it("deletes codes expired for longer than the retention, and nothing else", async () => {
    const dayAgo = -24 * HOUR;
    const long = await createCode(db(), scope, {}, inMillis(-EXPIRED_CODE_RETENTION_MILLIS - HOUR));
    const recent = await createCode(db(), scope, {}, inMillis(dayAgo));
    const live = await createCode(db(), scope, {}, inMillis(HOUR));
    const deleted = await server.instance.services.housekeeping.run();
    expect(deleted).toMatchObject({ expiredCodes: expect.any(Number) });
    const left = await db()
      .select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(inArray(verificationCodes.id, [long.id, recent.id, live.id]));
    expect(left.map((r) => r.id).sort()).toEqual([recent.id, live.id].sort());
    // A recently expired code still answers as expired, not as unknown.
    expect(await rejection(useCode(codes(), scope, recent.code))).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
    expect(await rejection(useCode(codes(), scope, long.code))).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
  });

  it("works through more than one batch", async () => {
    for (let i = 0; i < 3; i++) {
      await db()
        .insert(verificationCodes)
        .select(
          sql`select gen_random_uuid(), ${scope.projectId}, 'main', 'password_reset', md5(random()::text) || g, md5(random()::text), '{}'::jsonb, 0, now(), now() - interval '30 days', null from generate_series(1, 500) g`,
        );
    }
    expect(await deleteExpiredCodes(db(), server.clock.date())).toBeGreaterThanOrEqual(1500);
  });
});
