/**
 * What an app knows without a request: the partial user of the access
 * token's claims (or a Convex identity), and the redirects to the OAuth
 * callback, CLI confirmation and onboarding pages.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { StackClientApp, StackServerApp, type ConvexCtx } from "../../src/index.ts";
import { makeAccessToken } from "./helpers.ts";

const CLAIMS = {
  sub: "user-1",
  name: "Ada",
  email: "ada@example.com",
  email_verified: true,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  requires_totp_mfa: true,
};

function appWith(tokens: { accessToken: string | null; refreshToken: string | null }, visited: string[] = []) {
  return new StackClientApp({
    baseUrl: "http://api.test:8102",
    projectId: "p1",
    tokenStore: tokens,
    redirectMethod: { navigate: (to) => visited.push(to) },
    // getPartialUser never asks the server.
    fetch: () => Promise.reject(new Error("no request expected")),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe("getPartialUser", () => {
  it("reads the user from the access token's claims", async () => {
    const app = appWith({ accessToken: makeAccessToken(Date.now() + 60_000, CLAIMS), refreshToken: "r" });
    expect(await app.getPartialUser({ from: "token" })).toEqual({
      id: "user-1",
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      isAnonymous: false,
      isMultiFactorRequired: true,
      isRestricted: false,
      restrictedReason: null,
    });
  });

  it("is null when signed out or the access token has expired (it does not refresh)", async () => {
    expect(await appWith({ accessToken: null, refreshToken: null }).getPartialUser({ from: "token" })).toBeNull();
    const expired = appWith({ accessToken: makeAccessToken(Date.now() - 1000, CLAIMS), refreshToken: "r" });
    expect(await expired.getPartialUser({ from: "token" })).toBeNull();
  });

  it("counts an anonymous user only with or: 'anonymous-if-exists'", async () => {
    const accessToken = makeAccessToken(Date.now() + 60_000, { ...CLAIMS, is_anonymous: true, is_restricted: true });
    const app = appWith({ accessToken, refreshToken: "r" });
    expect(await app.getPartialUser({ from: "token" })).toBeNull();
    expect(await app.getPartialUser({ from: "token", or: "anonymous-if-exists" })).toMatchObject({ id: "user-1", isAnonymous: true });
  });

  it("reads the tokens of the given token store, e.g. a server's request", async () => {
    const server = new StackServerApp({ baseUrl: "http://api.test:8102", projectId: "p1", secretServerKey: "ssk" });
    const request = new Request("https://api.example.com", {
      headers: { "x-stack-auth": JSON.stringify({ accessToken: makeAccessToken(Date.now() + 60_000, CLAIMS), refreshToken: "r" }) },
    });
    expect(await server.getPartialUser({ from: "token", tokenStore: request })).toMatchObject({
      id: "user-1",
      primaryEmail: "ada@example.com",
    });
  });

  it("reads a Convex function's identity", async () => {
    const ctx: ConvexCtx = { auth: { getUserIdentity: async () => ({ ...CLAIMS, subject: "user-2", email_verified: false }) } };
    const app = appWith({ accessToken: null, refreshToken: null });
    expect(await app.getPartialUser({ from: "convex", ctx })).toMatchObject({ id: "user-2", primaryEmailVerified: false });
    const signedOut: ConvexCtx = { auth: { getUserIdentity: async () => null } };
    expect(await app.getPartialUser({ from: "convex", ctx: signedOut })).toBeNull();
  });
});

describe("redirects", () => {
  it("goes to the OAuth callback, CLI confirmation and onboarding pages", async () => {
    const visited: string[] = [];
    const app = appWith({ accessToken: null, refreshToken: null }, visited);
    await app.redirectToOAuthCallback();
    await app.redirectToCliAuthConfirm();
    await app.redirectToOnboarding();
    expect(visited).toEqual(["/handler/oauth-callback", "/handler/cli-auth-confirm", "/handler/onboarding"]);
    expect(app.urls.onboarding).toBe("/handler/onboarding");
  });

  it("sends the onboarding page back to the current page, as sign-in does", async () => {
    const href = "https://app.example/orders?tab=2";
    vi.stubGlobal("window", { location: new URL(href) });
    const visited: string[] = [];
    await appWith({ accessToken: null, refreshToken: null }, visited).redirectToOnboarding();
    expect(visited).toEqual([`/handler/onboarding?after_auth_return_to=${encodeURIComponent("/orders?tab=2")}`]);
  });
});
