import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_ATTEMPTS, isIdempotent, retryAfterMillis, retryDelayMillis, sleep } from "../../src/interface/retry.ts";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("retryDelayMillis", () => {
  it("doubles from a 1000 ms base, scaled by 0.5 + random", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMillis(n, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMillis(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMillis(3, () => 0.99)).toBeCloseTo(4000 * 1.49);
  });

  it("uses Math.random for jitter by default", () => {
    const random = vi.spyOn(Math, "random").mockReturnValue(0.25);
    expect(retryDelayMillis(2)).toBe(1500);
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe("retryAfterMillis", () => {
  it("reads Retry-After seconds", () => {
    expect(retryAfterMillis("3", 1)).toBe(3000);
    expect(retryAfterMillis("0", 1)).toBe(0);
    expect(retryAfterMillis("1.5", 4)).toBe(1500);
  });

  it("reads Retry-After as an HTTP date relative to now", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterMillis("Tue, 01 Jan 2030 00:00:07 GMT", 1, now)).toBe(7000);
    expect(retryAfterMillis("Mon, 31 Dec 2029 23:59:00 GMT", 1, now)).toBe(0);
  });

  it("falls back to the back-off when the header is absent or unreadable", () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(retryAfterMillis(null, 1)).toBe(500);
    expect(retryAfterMillis("soon", 3)).toBe(2000);
  });
});

describe("isIdempotent", () => {
  it.each(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "get", "delete"])("%s may be retried", (method) => {
    expect(isIdempotent(method)).toBe(true);
  });

  it.each(["POST", "PATCH", "post", "patch"])("%s may not be retried", (method) => {
    expect(isIdempotent(method)).toBe(false);
  });
});

describe("retry constants and sleep", () => {
  it("allows 5 attempts in total", () => {
    expect(MAX_ATTEMPTS).toBe(5);
  });

  it("sleep resolves only after the given time", async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
