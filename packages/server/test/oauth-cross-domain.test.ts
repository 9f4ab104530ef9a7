/**
 * POST /auth/oauth/cross-domain/authorize: a signed-in app hands its session
 * to the project's app on another domain through a one-time code on that
 * app's redirect_uri, redeemed once at /auth/oauth/token with its PKCE
 * verifier for the same session.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verificationCodes } from "../src/db/schema/index.ts";
import { createProject, expectPlainError, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { exchangeCode, newPkce } from "./oauth-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server, undefined, {
    allow_localhost: false,
    domains: [
      { domain: "https://one.example.com", handler_path: "/handler" },
      { domain: "https://two.example.com", handler_path: "/handler" },
    ],
  });
});
afterAll(() => server?.close());

const REDIRECT_URI = "https://two.example.com/handler/oauth-callback?stack_cross_domain_auth=1";
const AFTER = "https://two.example.com/after-sign-in";

interface Handoff {
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  after_callback_redirect_url?: string;
}

function authorize(user: Pick<EndUser, "accessToken" | "refreshToken"> | null, body: Handoff, refreshToken = user?.refreshToken) {
  return server.request("/auth/oauth/cross-domain/authorize", {
    method: "POST",
    as: { ...project.client, ...(user ? { accessToken: user.accessToken } : {}) },
    headers: refreshToken ? { "x-stack-refresh-token": refreshToken } : {},
    body: {
      redirect_uri: REDIRECT_URI,
      state: "cross-domain-state",
      code_challenge_method: "S256",
      after_callback_redirect_url: AFTER,
      ...body,
    },
  });
}

async function codeFor(user: EndUser) {
  const pkce = newPkce();
  const res = await authorize(user, { code_challenge: pkce.challenge });
  expect(res.status, res.text).toBe(200);
  const url = new URL(res.body.redirect_url);
  return { code: url.searchParams.get("code")!, verifier: pkce.verifier, url };
}

const redeem = (code: string, verifier: string, redirectUri = REDIRECT_URI) =>
  exchangeCode(server, project, { code, verifier, redirectUri });

describe("POST /auth/oauth/cross-domain/authorize", () => {
  it("issues a code on the other app's redirect_uri, redeemed with PKCE for the same session", async () => {
    const user = await signUpUser(server, project);
    const { code, verifier, url } = await codeFor(user);
    expect(`${url.origin}${url.pathname}`).toBe("https://two.example.com/handler/oauth-callback");
    expect(url.searchParams.get("stack_cross_domain_auth")).toBe("1");
    expect(url.searchParams.get("state")).toBe("cross-domain-state");
    // Stored by its digest only, and the session's refresh token sealed.
    const stored = await server.instance.services.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.purpose, "oauth_authorization_code"));
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(JSON.stringify(stored)).not.toContain(user.refreshToken);

    const res = await redeem(code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      refresh_token: user.refreshToken,
      after_callback_redirect_url: AFTER,
      afterCallbackRedirectUrl: AFTER,
      is_new_user: false,
      token_type: "Bearer",
    });
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.body.id).toBe(user.userId);
    // No new session: the user still has the one.
    const sessions = await server.request("/auth/sessions", { as: user.as, query: { user_id: "me" } });
    expect(sessions.body.items).toHaveLength(1);
  });

  it("a code is redeemed once; of two redemptions at once exactly one wins", async () => {
    const user = await signUpUser(server, project);
    const once = await codeFor(user);
    expect((await redeem(once.code, once.verifier)).status).toBe(200);
    expectKnownError(await redeem(once.code, once.verifier), "INVALID_AUTHORIZATION_CODE", 400);

    const raced = await codeFor(user);
    const answers = await Promise.all([redeem(raced.code, raced.verifier), redeem(raced.code, raced.verifier)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    expectKnownError(
      answers.find((res) => res.status === 400)!,
      "INVALID_AUTHORIZATION_CODE",
      400,
    );
  });

  it("a wrong PKCE verifier or another redirect_uri does not redeem it", async () => {
    const user = await signUpUser(server, project);
    const { code, verifier } = await codeFor(user);
    expectKnownError(await redeem(code, newPkce().verifier), "INVALID_AUTHORIZATION_CODE", 400);
    expectPlainError(await redeem(code, verifier, "https://two.example.com/handler/other"), 400);
    expect((await redeem(code, verifier)).status).toBe(200);
  });

  it("a session signed out since: INVALID_AUTHORIZATION_CODE", async () => {
    const user = await signUpUser(server, project);
    const { code, verifier } = await codeFor(user);
    const signOut = await server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
    expect(signOut.status, signOut.text).toBe(200);
    expectKnownError(await redeem(code, verifier), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("no user: USER_AUTHENTICATION_REQUIRED (401)", async () => {
    expectKnownError(await authorize(null, { code_challenge: newPkce().challenge }), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("untrusted redirect_uri or after_callback_redirect_url: REDIRECT_URL_NOT_WHITELISTED, without details", async () => {
    const user = await signUpUser(server, project);
    const code_challenge = newPkce().challenge;
    const evil = await authorize(user, { code_challenge, redirect_uri: "https://evil.example.com/oauth/callback" });
    expectKnownError(evil, "REDIRECT_URL_NOT_WHITELISTED", 400);
    expect(evil.body).not.toHaveProperty("details");
    expectKnownError(
      await authorize(user, { code_challenge, after_callback_redirect_url: "https://evil.example.com/post-auth" }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
  });

  it("the session's refresh token is required and must be this session's", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    const code_challenge = newPkce().challenge;
    expectPlainError(
      await authorize(user, { code_challenge }, ""),
      400,
      /^Cross-domain auth handoff requires passing the current refresh token\.$/,
    );
    for (const wrong of ["not-a-refresh-token", other.refreshToken]) {
      expectPlainError(
        await authorize(user, { code_challenge }, wrong),
        401,
        /^Cross-domain auth handoff refresh token does not match the authenticated session\.$/,
      );
    }
  });

  it("a challenge that is not S256 is refused", async () => {
    const user = await signUpUser(server, project);
    const res = await authorize(user, { code_challenge: newPkce().challenge, code_challenge_method: "plain" });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
  });
});
