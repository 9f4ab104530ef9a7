/**
 * OAuth sign-in end to end against the development OpenID provider running
 * as its own process: authorize → the provider's sign-in page → our callback
 * → the app's redirect_uri with a code → the token endpoint. Sign-up, sign-in
 * again, linking, anonymous upgrade, JSON mode, two-factor, and every way the
 * callback refuses or sends an error back to the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthFlows, verificationCodes } from "../src/db/schema/index.ts";
import { expectPlainError, jwtPayload, patchProjectConfig, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError } from "./harness.ts";
import { mfaSignIn, newTotpSecret, totpCode } from "./mfa-fixtures.ts";
import {
  APP_CALLBACK,
  Browser,
  authorizeQuery,
  authorizeUrl,
  createOAuthProject,
  exchangeCode,
  finishOnProvider,
  newPkce,
  providerCallbackUrl,
  signInToCode,
  signInWithProvider,
  startOAuthTestbed,
  startSignIn,
  type OAuthTestbed,
} from "./oauth-fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  testbed = await startOAuthTestbed();
  project = await createOAuthProject(testbed.server, { create_team_on_sign_up: true });
});
afterAll(() => testbed?.close());

async function me(accessToken: string) {
  const res = await testbed.server.request("/users/me", { as: { ...project.client, accessToken } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function countOf(table: typeof oauthFlows | typeof verificationCodes): Promise<number> {
  return (await testbed.server.instance.services.db.select().from(table)).length;
}

describe("signing up and in with a provider", () => {
  it("signs a new user up: code, token response, verified e-mail, personal team", async () => {
    const email = uniqueEmail("octocat");
    const started = await startSignIn(testbed, project);
    const app = await finishOnProvider(testbed, started, { email, name: "Mona Octocat" });
    expect(`${app.origin}${app.pathname}`).toBe(APP_CALLBACK);
    expect(app.searchParams.get("state")).toBe(started.state);
    const code = app.searchParams.get("code")!;
    expect(code).toMatch(/^[0-9a-z]{45}$/);
    // The callback deleted the flow's cookie.
    expect([...started.browser.cookies(testbed.server.config.apiUrl).keys()]).toEqual([]);

    const res = await exchangeCode(testbed.server, project, { code, verifier: started.pkce.verifier });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(Object.keys(res.body).sort()).toEqual([
      "access_token",
      "afterCallbackRedirectUrl",
      "after_callback_redirect_url",
      "expires_in",
      "is_new_user",
      "newUser",
      "refresh_token",
      "scope",
      "token_type",
    ]);
    expect(res.body).toMatchObject({
      is_new_user: true,
      newUser: true,
      scope: "legacy",
      token_type: "Bearer",
      after_callback_redirect_url: null,
      afterCallbackRedirectUrl: null,
      expires_in: 600,
    });
    const user = await me(res.body.access_token);
    expect(user).toMatchObject({ primary_email: email, primary_email_verified: true, display_name: "Mona Octocat" });
    expect(user.selected_team).toMatchObject({ display_name: "Mona Octocat's Team" });
  });

  it("signs the same provider account in again: is_new_user false, same user", async () => {
    const email = uniqueEmail("again");
    const first = await signInWithProvider(testbed, project, email);
    expect(first.body.is_new_user).toBe(true);
    const second = await signInWithProvider(testbed, project, email);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ is_new_user: false, newUser: false });
    expect(jwtPayload(second.body.access_token).sub).toBe(jwtPayload(first.body.access_token).sub);
    // Each sign-in is its own session.
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
  });

  it("hands back a trusted after_callback_redirect_url at the token endpoint", async () => {
    const next = "http://localhost:3000/settings?tab=accounts";
    const res = await signInWithProvider(testbed, project, uniqueEmail(), { query: { after_callback_redirect_url: next } });
    expect(res.body).toMatchObject({ after_callback_redirect_url: next, afterCallbackRedirectUrl: next });
  });

  it("keeps the app's own query on redirect_uri and adds code and state", async () => {
    const redirectUri = "http://localhost:3000/handler/oauth-callback?from=signin";
    const { appUrl, code, verifier } = await signInToCode(testbed, project, uniqueEmail(), { redirectUri });
    expect(appUrl.searchParams.get("from")).toBe("signin");
    const res = await exchangeCode(testbed.server, project, { code, verifier, redirectUri });
    expect(res.status, res.text).toBe(200);
  });

  it("works in JSON mode, where no cookie is set or needed", async () => {
    const browser = new Browser(testbed.server);
    const pkce = newPkce();
    const res = await browser.go(authorizeUrl(authorizeQuery(project, pkce, "json-state", { query: { stack_response_mode: "json" } })));
    expect(res.status).toBe(200);
    const { location } = (await res.json()) as { location: string };
    expect(browser.cookies(testbed.server.config.apiUrl).size).toBe(0);
    const page = await browser.follow(location, testbed.provider.url);
    const action = /action="([^"]+\/login)"/.exec(await page.res.text())![1]!;
    const started = { browser, pkce, state: "json-state", loginUrl: new URL(action, testbed.provider.url).toString(), authorize: res };
    const app = await finishOnProvider(testbed, started, { email: uniqueEmail("json") });
    expect(app.searchParams.get("state")).toBe("json-state");
    const tokens = await exchangeCode(testbed.server, project, { code: app.searchParams.get("code")!, verifier: pkce.verifier });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
  });

  it("upgrades the anonymous user of the authorize token instead of creating one", async () => {
    const anon = await testbed.server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(anon.status, anon.text).toBe(200);
    const res = await signInWithProvider(testbed, project, uniqueEmail("anon"), { query: { token: anon.body.access_token } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_new_user).toBe(true);
    expect(jwtPayload(res.body.access_token)).toMatchObject({ sub: anon.body.user_id, is_anonymous: false });
  });
});

describe("linking a provider account to the signed-in user", () => {
  it("links Google to a password user; the token endpoint signs that user in", async () => {
    const user = await signUpUser(testbed.server, project);
    const res = await signInWithProvider(testbed, project, uniqueEmail("linked"), {
      providerId: "google",
      query: { type: "link", token: user.accessToken },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_new_user).toBe(false);
    expect(jwtPayload(res.body.access_token).sub).toBe(user.userId);
  });
});

describe("a provider e-mail that another user signs in with (merge strategies)", () => {
  async function serverUser(p: Project, email: string, verified: boolean): Promise<string> {
    const res = await testbed.server.request("/users", {
      method: "POST",
      as: p.server,
      body: { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true, password: "correct horse battery" },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  it("link_method: links to the user whose address is verified (the provider's is verified too)", async () => {
    const email = uniqueEmail("merge");
    const userId = await serverUser(project, email, true);
    const res = await signInWithProvider(testbed, project, email);
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_new_user).toBe(false);
    expect(jwtPayload(res.body.access_token).sub).toBe(userId);
  });

  it("link_method with that user's address unverified: the error goes to the app with its details", async () => {
    const email = uniqueEmail("unverified");
    await serverUser(project, email, false);
    const started = await startSignIn(testbed, project);
    const app = await finishOnProvider(testbed, started, { email });
    expect(app.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(JSON.parse(app.searchParams.get("details")!)).toEqual({
      type: "email",
      contact_channel_value: email,
      would_work_if_email_was_verified: true,
    });
  });

  it("allow_duplicates: a new user", async () => {
    const p = await createOAuthProject(testbed.server, { oauth_account_merge_strategy: "allow_duplicates" });
    const email = uniqueEmail("dup");
    const existing = await serverUser(p, email, true);
    const res = await signInWithProvider(testbed, p, email);
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_new_user).toBe(true);
    expect(jwtPayload(res.body.access_token).sub).not.toBe(existing);
  });

  it("a provider account already linked to another user cannot be linked again", async () => {
    const email = uniqueEmail("taken");
    await signInWithProvider(testbed, project, email);
    const other = await signUpUser(testbed.server, project);
    const started = await startSignIn(testbed, project, { query: { type: "link", token: other.accessToken } });
    const app = await finishOnProvider(testbed, started, { email });
    expect(app.searchParams.get("errorCode")).toBe("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  });
});

describe("a user with two-factor", () => {
  it("gets MULTI_FACTOR_AUTHENTICATION_REQUIRED at the token endpoint, and finishes with TOTP", async () => {
    const email = uniqueEmail("mfa");
    const first = await signInWithProvider(testbed, project, email);
    const secret = newTotpSecret();
    const patched = await testbed.server.request("/users/me", {
      method: "PATCH",
      as: { ...project.client, accessToken: first.body.access_token },
      body: { totp_secret_base64: secret },
    });
    expect(patched.status, patched.text).toBe(200);

    const { code, verifier } = await signInToCode(testbed, project, email);
    const res = await exchangeCode(testbed.server, project, { code, verifier });
    expectKnownError(res, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
    const finished = await mfaSignIn(testbed.server, project, res.body.details.attempt_code, totpCode(secret));
    expect(finished.status, finished.text).toBe(200);
    expect(finished.body.user_id).toBe(jwtPayload(first.body.access_token).sub);
    // The code was spent on the first factor.
    expectKnownError(await exchangeCode(testbed.server, project, { code, verifier }), "INVALID_AUTHORIZATION_CODE", 400);
  });
});

describe("errors sent back to the app", () => {
  it("the user denies: 307 to redirect_uri with OAUTH_PROVIDER_ACCESS_DENIED", async () => {
    const started = await startSignIn(testbed, project);
    const codesBefore = await countOf(verificationCodes);
    const app = await finishOnProvider(testbed, started, "deny");
    expect(`${app.origin}${app.pathname}`).toBe(APP_CALLBACK);
    expect(Object.fromEntries(app.searchParams)).toEqual({
      error: "server_error",
      error_description: expect.any(String),
      errorCode: "OAUTH_PROVIDER_ACCESS_DENIED",
      message: expect.any(String),
      details: "{}",
      state: started.state,
    });
    expect(app.searchParams.get("message")).toBe(app.searchParams.get("error_description"));
    expect(await countOf(verificationCodes)).toBe(codesBefore);
    expect([...started.browser.cookies(testbed.server.config.apiUrl).keys()]).toEqual([]);
  });

  it("the flow timed out (more than 10 minutes): OUTER_OAUTH_TIMEOUT", async () => {
    const started = await startSignIn(testbed, project);
    const callback = await providerCallbackUrl(testbed, started, uniqueEmail("slow"));
    const res = await testbed.server.clock.ahead(10 * 60 * 1000 + 1000, () => started.browser.go(callback));
    expect(res.status).toBe(307);
    const app = new URL(res.headers.get("location")!);
    expect(app.searchParams.get("errorCode")).toBe("OUTER_OAUTH_TIMEOUT");
    expect(app.searchParams.get("message")).toBe("The OAuth flow has timed out. Please sign in again.");
  });

  it("sign-up closed since: SIGN_UP_NOT_ENABLED, with after_callback_redirect_url passed along", async () => {
    const closed = await createOAuthProject(testbed.server);
    const next = "http://localhost:3000/after";
    const started = await startSignIn(testbed, closed, { query: { after_callback_redirect_url: next } });
    await patchProjectConfig(testbed.server, closed, { sign_up_enabled: false });
    const app = await finishOnProvider(testbed, started, { email: uniqueEmail("closed") });
    expect(app.searchParams.get("errorCode")).toBe("SIGN_UP_NOT_ENABLED");
    expect(app.searchParams.get("after_callback_redirect_url")).toBe(next);
  });

  it("redirect_uri no longer trusted: the error goes to a trusted error_redirect_url, else it is answered", async () => {
    const p = await createOAuthProject(testbed.server, { domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    const errorPage = "https://app.example.com/handler/error";
    const withErrorPage = await startSignIn(testbed, p, { query: { error_redirect_uri: errorPage } });
    const without = await startSignIn(testbed, p);
    await patchProjectConfig(testbed.server, p, { allow_localhost: false });

    const app = await finishOnProvider(testbed, withErrorPage, { email: uniqueEmail() });
    expect(`${app.origin}${app.pathname}`).toBe(errorPage);
    expect(app.searchParams.get("errorCode")).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect(JSON.parse(app.searchParams.get("details")!)).toEqual({});

    const callback = await providerCallbackUrl(testbed, without, uniqueEmail());
    const res = await without.browser.go(callback);
    expect(res.status).toBe(400);
    expect(res.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect(await res.json()).not.toHaveProperty("details");
    expect(deletedCookies(res)).toEqual([innerCookieOf(callback)]);
  });

  it("the provider was removed from the project since: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    const p = await createOAuthProject(testbed.server);
    const started = await startSignIn(testbed, p);
    await patchProjectConfig(testbed.server, p, { oauth_providers: [{ id: "google", type: "shared" }] });
    const app = await finishOnProvider(testbed, started, { email: uniqueEmail() });
    expect(app.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  });

  it("the publishable key was revoked since: INVALID_PUBLISHABLE_CLIENT_KEY", async () => {
    const p = await createOAuthProject(testbed.server);
    const started = await startSignIn(testbed, p);
    const keys = await testbed.server.request("/internal/api-keys", { as: p.ownerAdmin });
    expect(keys.status, keys.text).toBe(200);
    for (const key of keys.body.items) {
      const revoked = await testbed.server.request(`/internal/api-keys/${key.id}`, {
        method: "PATCH",
        as: p.ownerAdmin,
        body: { revoked: true },
      });
      expect(revoked.status, revoked.text).toBe(200);
    }
    const app = await finishOnProvider(testbed, started, { email: uniqueEmail() });
    expect(app.searchParams.get("errorCode")).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });
});

/** The cookies a response deletes: `Max-Age=0` on the whole site. */
function deletedCookies(res: { headers: Headers }): string[] {
  return res.headers
    .getSetCookie()
    .filter((line) => /;\s*Max-Age=0(;|$)/i.test(line) && /;\s*Path=\/(;|$)/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")));
}

/** The flow cookie of the state a provider callback URL carries. */
function innerCookieOf(callbackUrl: string): string {
  return `stack-oauth-inner-${new URL(callbackUrl).searchParams.get("state")}`;
}

describe("callbacks refused in plain text", () => {
  it("an unknown state; the refusal deletes the cookie of the state it came with", async () => {
    const res = await testbed.server.request("/auth/oauth/callback/github", { query: { state: "made-up", code: "x" } });
    expectPlainError(res, 400, /^Invalid OAuth state\. Please try signing in again\.$/);
    expect(deletedCookies(res)).toEqual(["stack-oauth-inner-made-up"]);
    const none = await testbed.server.request("/auth/oauth/callback/github");
    expectPlainError(none, 400, /^Invalid OAuth state\./);
    expect(deletedCookies(none)).toEqual(["stack-oauth-inner-"]);
  });

  it("a browser without the flow's cookie; the flow is spent either way", async () => {
    const started = await startSignIn(testbed, project);
    const callback = await providerCallbackUrl(testbed, started, uniqueEmail());
    const flowsBefore = await countOf(oauthFlows);
    const stranger = new Browser(testbed.server);
    const res = await stranger.go(callback);
    expect(res.status).toBe(400);
    expect(deletedCookies(res)).toEqual([innerCookieOf(callback)]);
    expect(await res.text()).toBe(
      "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again",
    );
    expect(await countOf(oauthFlows)).toBe(flowsBefore - 1);
    const again = await started.browser.go(callback);
    expect(again.status).toBe(400);
    expect(await again.text()).toBe("Invalid OAuth state. Please try signing in again.");
  });

  it("a callback opened twice (reload): the second finds no flow", async () => {
    const started = await startSignIn(testbed, project);
    const callback = await providerCallbackUrl(testbed, started, uniqueEmail());
    const cookies = new Map(started.browser.cookies(testbed.server.config.apiUrl));
    expect((await started.browser.go(callback)).status).toBe(303);
    // Even with the cookie put back.
    for (const [k, v] of cookies) started.browser.cookies(testbed.server.config.apiUrl).set(k, v);
    const again = await started.browser.go(callback);
    expect(again.status).toBe(400);
    expect(await again.text()).toBe("Invalid OAuth state. Please try signing in again.");
    expect(deletedCookies(again)).toEqual([innerCookieOf(callback)]);
    expect(started.browser.cookies(testbed.server.config.apiUrl).size).toBe(0);
  });

  it("a flow brought to another provider's callback", async () => {
    const started = await startSignIn(testbed, project);
    const callback = await providerCallbackUrl(testbed, started, uniqueEmail());
    const res = await started.browser.go(callback.replace("/callback/github", "/callback/google"));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("Invalid OAuth state. Please try signing in again.");
  });

  it("a provider code that is not the provider's: 400 (invalid grant)", async () => {
    const started = await startSignIn(testbed, project);
    const callback = new URL(await providerCallbackUrl(testbed, started, uniqueEmail()));
    callback.searchParams.set("code", "not-the-code");
    const res = await started.browser.go(callback.toString());
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("Inner OAuth callback failed due to invalid grant. Please try again.");
    expect(deletedCookies(res)).toEqual([innerCookieOf(callback.toString())]);
  });
});

describe("providers that post their answer", () => {
  it("a form_post callback is turned into the same callback as a GET (303)", async () => {
    const res = await testbed.server.request("/auth/oauth/callback/apple", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state: "s1", code: "c1", user: '{"name":{"firstName":"A"}}' }).toString(),
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, "http://localhost");
    expect(location.pathname).toBe("/api/v1/auth/oauth/callback/apple");
    expect(Object.fromEntries(location.searchParams)).toEqual({ state: "s1", code: "c1", user: '{"name":{"firstName":"A"}}' });
  });
});
