import { describe, expect, it, vi } from "vitest";
import { Session, type Tokens } from "../../src/session/session.ts";
import { makeAccessToken } from "./helpers.ts";

const NOW = 1_800_000_000_000;
const now = () => NOW;

/** A token with `millisLeft` of life at NOW (exp has whole-second precision, so keep multiples of 1000). */
const tokenLiving = (millisLeft: number, claims: Record<string, unknown> = {}) => makeAccessToken(NOW + millisLeft, claims);

/** A promise whose resolution the test controls. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("Session.getAccessToken", () => {
  it("reuses a token with more than 20000 ms left without refreshing", async () => {
    const token = tokenLiving(21_000);
    const refresher = vi.fn(async () => "new");
    const session = new Session(refresher, { accessToken: token, refreshToken: "rt" }, now);
    expect(await session.getAccessToken()).toBe(token);
    expect(refresher).not.toHaveBeenCalled();
  });

  it("refreshes a token with exactly 20000 ms left", async () => {
    const fresh = tokenLiving(3_600_000);
    const refresher = vi.fn(async () => fresh);
    const session = new Session(refresher, { accessToken: tokenLiving(20_000), refreshToken: "rt" }, now);
    expect(await session.getAccessToken()).toBe(fresh);
    expect(refresher).toHaveBeenCalledWith("rt");
  });

  it("honours a custom freshness requirement", async () => {
    const token = tokenLiving(30_000);
    const refresher = vi.fn(async () => tokenLiving(3_600_000));
    const session = new Session(refresher, { accessToken: token, refreshToken: "rt" }, now);
    expect(await session.getAccessToken(10_000)).toBe(token);
    expect(refresher).toHaveBeenCalledTimes(0);
    expect(await session.getAccessToken(40_000)).not.toBe(token);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it("refreshes an expired token once for many concurrent callers", async () => {
    const fresh = tokenLiving(3_600_000);
    const pending = deferred<string | null>();
    const refresher = vi.fn(() => pending.promise);
    const session = new Session(refresher, { accessToken: tokenLiving(-1000), refreshToken: "rt" }, now);
    const waiting = Array.from({ length: 10 }, () => session.getAccessToken());
    pending.resolve(fresh);
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(fresh));
    expect(refresher).toHaveBeenCalledTimes(1);
    expect(session.tokens).toEqual({ accessToken: fresh, refreshToken: "rt" });
    expect(await session.getAccessToken()).toBe(fresh);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it("treats an unreadable access token as expired", async () => {
    const refresher = vi.fn(async () => tokenLiving(3_600_000));
    const session = new Session(refresher, { accessToken: "not-a-jwt", refreshToken: "rt" }, now);
    await session.getAccessToken();
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it("returns null without calling the refresher when there is no refresh token", async () => {
    const refresher = vi.fn(async () => "x");
    const session = new Session(refresher, { accessToken: tokenLiving(-1000), refreshToken: null }, now);
    expect(await session.getAccessToken()).toBeNull();
    expect(refresher).not.toHaveBeenCalled();
  });

  it("clears both tokens when the refresh token is refused (refresher resolves null)", async () => {
    const session = new Session(async () => null, { accessToken: tokenLiving(-1000), refreshToken: "rt" }, now);
    const changes: Tokens[] = [];
    session.onChange((tokens) => changes.push(tokens));
    expect(await session.getAccessToken()).toBeNull();
    expect(session.tokens).toEqual({ accessToken: null, refreshToken: null });
    expect(session.isSignedOut).toBe(true);
    expect(changes).toEqual([{ accessToken: null, refreshToken: null }]);
  });

  it("keeps the tokens when the refresher throws, and tries again on the next call", async () => {
    const expired = tokenLiving(-1000);
    const fresh = tokenLiving(3_600_000);
    const refresher = vi
      .fn<(rt: string) => Promise<string | null>>()
      .mockRejectedValueOnce(new TypeError("offline"))
      .mockResolvedValueOnce(fresh);
    const session = new Session(refresher, { accessToken: expired, refreshToken: "rt" }, now);
    await expect(session.getAccessToken()).rejects.toThrow("offline");
    expect(session.tokens).toEqual({ accessToken: expired, refreshToken: "rt" });
    expect(session.isSignedOut).toBe(false);
    expect(await session.getAccessToken()).toBe(fresh);
    expect(refresher).toHaveBeenCalledTimes(2);
  });

  it("ignores a refresh answer that arrives after sign-out", async () => {
    const pending = deferred<string | null>();
    const session = new Session(() => pending.promise, { accessToken: null, refreshToken: "rt" }, now);
    const result = session.getAccessToken();
    session.clear();
    pending.resolve(tokenLiving(3_600_000));
    expect(await result).toBeNull();
    expect(session.tokens).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("Session.refresh across a change of session", () => {
  it("does not hand the new session the old session's refresh; it refreshes the new one", async () => {
    const pending = deferred<string | null>();
    const fresh = tokenLiving(3_600_000);
    const refresher = vi.fn(async (refreshToken: string) => (refreshToken === "A" ? pending.promise : fresh));
    const session = new Session(refresher, { accessToken: null, refreshToken: "A" }, now);
    const first = session.getAccessToken();
    // Another sign-in replaces the session while A's refresh is under way.
    session.set({ accessToken: null, refreshToken: "B" });
    expect(await session.getAccessToken()).toBe(fresh);
    expect(refresher.mock.calls.map(([token]) => token)).toEqual(["A", "B"]);
    pending.resolve(tokenLiving(3_600_000, { sub: "old" }));
    // The stale answer for A is not adopted; its caller gets B's token.
    expect(await first).toBe(fresh);
    expect(session.tokens).toEqual({ accessToken: fresh, refreshToken: "B" });
  });
});

describe("Session.markAccessTokenExpired", () => {
  it("drops the given token so the next call refreshes", async () => {
    const first = tokenLiving(3_600_000, { n: 1 });
    const second = tokenLiving(3_600_000, { n: 2 });
    const refresher = vi.fn(async () => second);
    const session = new Session(refresher, { accessToken: first, refreshToken: "rt" }, now);
    session.markAccessTokenExpired(first);
    expect(session.tokens).toEqual({ accessToken: null, refreshToken: "rt" });
    expect(await session.getAccessToken()).toBe(second);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it("ignores a token that is no longer the current one", () => {
    const current = tokenLiving(3_600_000, { n: 2 });
    const session = new Session(async () => null, { accessToken: current, refreshToken: "rt" }, now);
    session.markAccessTokenExpired(tokenLiving(3_600_000, { n: 1 }));
    expect(session.tokens.accessToken).toBe(current);
  });
});

describe("Session.onChange", () => {
  it("fires with the new tokens on each change, not on no-op sets, and stops after unsubscribe", () => {
    const session = new Session(async () => null, { accessToken: null, refreshToken: null }, now);
    const listener = vi.fn();
    const unsubscribe = session.onChange(listener);
    session.set({ accessToken: "a", refreshToken: "r" });
    session.set({ accessToken: "a", refreshToken: "r" });
    session.markAccessTokenExpired("a");
    expect(listener.mock.calls).toEqual([[{ accessToken: "a", refreshToken: "r" }], [{ accessToken: null, refreshToken: "r" }]]);
    unsubscribe();
    session.clear();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(session.isSignedOut).toBe(true);
  });
});
