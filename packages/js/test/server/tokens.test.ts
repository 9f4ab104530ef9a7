/**
 * Token behaviour against a real server: tokens with more than
 * 20 s left are reused; a stale one is refreshed once however many calls
 * wait; a refused refresh token signs the client out; a token the server
 * calls invalid is dropped and the call retried.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { StackClientApp } from "../../src/index.ts";
import { createSdkProject, type SdkProject, clientAppOf } from "./fixtures.ts";
import { countingFetch, PASSWORD, skipAhead, startServer, uniqueEmail, type TestServer } from "./support.ts";

/** Tokens expire at a whole second 22–23 s after issue: fresh for the SDK (> 20 s left) at first, stale after 3.1 s. */
const LIFETIME_MILLIS = 23_000;
const STALE_AFTER_MILLIS = 3_100;

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer({ accessTokenExpirationMillis: LIFETIME_MILLIS }));
  project = await createSdkProject(baseUrl);
});
afterAll(() => server?.close());
afterEach(() => vi.restoreAllMocks());

async function signedInApp() {
  const counted = countingFetch();
  const app = clientAppOf(baseUrl, project, { fetch: counted.fetch });
  const email = uniqueEmail();
  await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  counted.calls.length = 0;
  return { app, calls: counted.calls };
}

const refreshes = (calls: { path: string }[]) => calls.filter((c) => c.path === "/auth/sessions/current/refresh").length;

describe("access tokens", () => {
  it("reuses a fresh token, and refreshes a stale one once for ten concurrent calls", async () => {
    const { app, calls } = await signedInApp();
    const first = await app.getAccessToken();
    expect(await app.getAccessToken()).toBe(first);
    expect(refreshes(calls)).toBe(0);

    skipAhead(STALE_AFTER_MILLIS); // the SDK's and the server's time
    const users = await Promise.all(Array.from({ length: 10 }, () => app.getUser({ or: "throw" })));
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(refreshes(calls)).toBe(1);
    const second = await app.getAccessToken();
    expect(second).not.toBe(first);
    expect(refreshes(calls)).toBe(1);
  });

  it("clears both tokens when the refresh token is refused", async () => {
    const { app } = await signedInApp();
    const user = await app.getUser({ or: "throw" });
    const [session] = await user.getActiveSessions();
    // End the session behind the client's back (as another device would).
    const other = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: project.publishableClientKey,
      tokenStore: await app.getAuthJson(),
    });
    await other.signOut();
    expect(session).toBeDefined();
    skipAhead(STALE_AFTER_MILLIS); // the SDK's and the server's time
    expect(await app.getUser()).toBeNull();
    expect(await app.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("drops an access token the server calls invalid, refreshes and retries", async () => {
    const { app, calls } = await signedInApp();
    const { refreshToken } = await app.getAuthJson();
    // A token for the right project that the server cannot parse.
    const broken = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: project.publishableClientKey,
      tokenStore: { accessToken: `${forgedToken()}`, refreshToken },
      fetch: (input, init) => {
        calls.push({ method: init?.method ?? "GET", path: new URL(String(input)).pathname.replace(/^\/api\/v1/, "") });
        return fetch(input, init);
      },
    });
    const user = await broken.getUser({ or: "throw" });
    expect(user.primaryEmail).toMatch(/@example\.com$/);
    expect(calls.map((c) => c.path)).toEqual(["/users/me", "/auth/sessions/current/refresh", "/users/me"]);
  });
});

/** Looks like a JWT that lives an hour, but its signature is garbage. */
function forgedToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "ES256", kid: "aaaaaaaaaaaa" })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600, sub: "x" })}.${"A".repeat(86)}`;
}
