/**
 * LATCHKEY_RATE_LIMITS=off: a test environment whose many clients share one
 * address turns the limits off (warned about at start). Nothing is counted
 * or refused then; the limits themselves are tested where they apply
 * (password.test.ts, otp.test.ts, mfa.test.ts, emails.test.ts, …).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { EmailSendRateLimit } from "../src/domain/emails/rate-limit.ts";
import { SignInRateLimit } from "../src/domain/auth/password/rate-limit.ts";
import { StartupError } from "../src/process/startup-error.ts";
import { createProject, passwordSignIn, PASSWORD, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { CALLBACK_URL } from "./mail-fixtures.ts";
import { TestClock } from "./test-clock.ts";

const WARNING = /LATCHKEY_RATE_LIMITS is off/;

let server: TestServer;
let project: Project;
beforeAll(async () => {
  server = await createTestServer({ rateLimits: false });
  project = await createProject(server, undefined, { magic_link_enabled: true });
});
afterAll(() => server?.close());

describe("LATCHKEY_RATE_LIMITS", () => {
  it("is on unless set to off; any other value stops the start", () => {
    expect(configFromEnv({}).rateLimits).toBe(true);
    expect(configFromEnv({ LATCHKEY_RATE_LIMITS: "on" }).rateLimits).toBe(true);
    expect(configFromEnv({ LATCHKEY_RATE_LIMITS: "off" }).rateLimits).toBe(false);
    expect(configFromEnv({ LATCHKEY_RATE_LIMITS: "OFF" }).rateLimits).toBe(false);
    for (const value of ["false", "0", "no"]) {
      expect(() => configFromEnv({ LATCHKEY_RATE_LIMITS: value })).toThrow(StartupError);
      expect(() => configFromEnv({ LATCHKEY_RATE_LIMITS: value })).toThrow(/LATCHKEY_RATE_LIMITS must be on or off/);
    }
  });

  it("off is warned about at start; on is not", async () => {
    expect(server.logs.some((line) => line.level === 40 && WARNING.test(String(line.msg)))).toBe(true);
    const limited = await createTestServer();
    try {
      expect(limited.logs.some((line) => WARNING.test(String(line.msg)))).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it("off, the limiters count nothing and refuse nothing", () => {
    const email = new EmailSendRateLimit(new TestClock(), false);
    const signIn = new SignInRateLimit(new TestClock(), false);
    for (let i = 0; i < 100; i++) {
      email.takeCodeEmail("p", "ada@example.com", "198.51.100.7");
      email.takeTestEmail("p", "198.51.100.7");
      signIn.recordFailure("p:ada@example.com", "198.51.100.7");
      signIn.totpPerUser.recordFailure("user");
    }
    expect(() => signIn.check("p:ada@example.com", "198.51.100.7")).not.toThrow();
    expect(signIn.totpPerUser.retryAfterSeconds("user")).toBe(0);
    // On (the default), the same sends are refused.
    const enforced = new EmailSendRateLimit(new TestClock());
    for (let i = 0; i < 5; i++) enforced.takeCodeEmail("p", "ada@example.com", null);
    expect(() => enforced.takeCodeEmail("p", "ada@example.com", null)).toThrow(/Too many e-mails/);
  });

  it("off, one address is mailed sign-in codes past the limit", async () => {
    const email = uniqueEmail("flood");
    // One more than the five codes an address may get every ten minutes.
    for (let i = 0; i < 6; i++) {
      const res = await server.request("/auth/otp/send-sign-in-code", {
        method: "POST",
        as: project.client,
        body: { email, callback_url: CALLBACK_URL },
      });
      expect(res.status, `send ${i + 1}: ${res.text}`).toBe(200);
    }
  }, 90_000);

  it("off, an account's wrong passwords never lock it: the right one still signs in", async () => {
    const user = await signUpUser(server, project);
    for (let i = 0; i < 21; i++) {
      expectKnownError(await passwordSignIn(server, project, user.email, `wrong password ${i}`), "EMAIL_PASSWORD_MISMATCH", 400);
    }
    const res = await passwordSignIn(server, project, user.email, PASSWORD);
    expect(res.status, res.text).toBe(200);
  });
});
