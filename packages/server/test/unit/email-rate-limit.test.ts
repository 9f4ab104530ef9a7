/** Limits on sending: per project for test e-mails, and per client address across projects. */
import { expect, it } from "vitest";
import { EmailSendRateLimit } from "../../src/domain/emails/rate-limit.ts";
import { TestClock } from "../test-clock.ts";
import { RateLimitedError } from "@latchkey/shared";

it("counts test e-mails per project, and every send per address across projects", () => {
  const limit = new EmailSendRateLimit(new TestClock());
  for (let i = 0; i < 10; i++) limit.takeTestEmail("p1", "198.51.100.7");
  expect(() => limit.takeTestEmail("p1", "198.51.100.8")).toThrow(RateLimitedError);
  // One address spreading over projects: 30 in all.
  for (let i = 0; i < 20; i++) limit.takeTestEmail(`p-${i}`, "198.51.100.7");
  let refused: unknown;
  try {
    limit.takeTestEmail("p-new", "198.51.100.7");
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(RateLimitedError);
  expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
  // Another address on a fresh project is fine.
  expect(() => limit.takeTestEmail("p-new", "203.0.113.1")).not.toThrow();
});

it("counts mailed codes per recipient (any case) and per client address, sharing the address's count with test e-mails", () => {
  const limit = new EmailSendRateLimit(new TestClock());
  for (let i = 0; i < 5; i++) limit.takeCodeEmail("p1", i % 2 ? "Ada@Example.com" : "ada@example.com", null);
  expect(() => limit.takeCodeEmail("p1", "ADA@example.com", null)).toThrow(RateLimitedError);
  // The same inbox in another project is counted apart.
  expect(() => limit.takeCodeEmail("p2", "ada@example.com", null)).not.toThrow();

  // One client address: 30 sends in all, whatever the recipients, test e-mails included.
  for (let i = 0; i < 25; i++) limit.takeCodeEmail("p1", `user-${i}@example.com`, "198.51.100.9");
  for (let i = 0; i < 5; i++) limit.takeTestEmail(`p-${i}`, "198.51.100.9");
  expect(() => limit.takeCodeEmail("p1", "fresh@example.com", "198.51.100.9")).toThrow(RateLimitedError);
  expect(() => limit.takeCodeEmail("p1", "fresh@example.com", "203.0.113.2")).not.toThrow();
});

it("forgets sends once their ten minutes have passed on the clock", () => {
  const clock = new TestClock();
  clock.freeze();
  const limit = new EmailSendRateLimit(clock);
  for (let i = 0; i < 5; i++) limit.takeCodeEmail("p1", "ada@example.com", null);
  clock.advance(9 * 60_000);
  let refused: unknown;
  try {
    limit.takeCodeEmail("p1", "ada@example.com", null);
  } catch (error) {
    refused = error;
  }
  // The first send leaves the window in a minute.
  expect((refused as RateLimitedError).retryAfterSeconds).toBe(60);
  clock.advance(60_000);
  expect(() => limit.takeCodeEmail("p1", "ada@example.com", null)).not.toThrow();
});
