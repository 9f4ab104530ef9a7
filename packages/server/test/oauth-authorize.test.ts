/**
 * GET /auth/oauth/authorize/<provider>: the request each of the 12 providers
 * is sent (built from the project's own credentials; no provider is
 * contacted), the inner cookie, JSON mode, and every refusal in the order the
 * checks run. The shared providers go to the development OpenID provider.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthFlows } from "../src/db/schema/index.ts";
import { EXPIRED_FLOW_RETENTION_MILLIS } from "../src/domain/auth/oauth/flows.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import { startSiteverifyPeer } from "./siteverify-peer.ts";
import { createProject, expectPlainError, expectSchemaErrorIncluding, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError } from "./harness.ts";
import {
  API_URL,
  APP_CALLBACK,
  authorizeQuery,
  createOAuthProject,
  newPkce,
  startOAuthTestbed,
  type OAuthTestbed,
} from "./oauth-fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;
let standard: Project;

const STANDARD_CONFIG = {
  oauth_providers: OAUTH_PROVIDER_IDS.map((id) => ({
    id,
    type: "standard",
    client_id: `client-${id}`,
    client_secret: `secret-${id}`,
    ...(id === "facebook" ? { facebook_config_id: "fb-config-1" } : {}),
    ...(id === "microsoft" ? { microsoft_tenant_id: "contoso.onmicrosoft.com" } : {}),
  })),
};

beforeAll(async () => {
  testbed = await startOAuthTestbed();
  project = await createOAuthProject(testbed.server);
  standard = await createProject(testbed.server, undefined, STANDARD_CONFIG);
});
afterAll(() => testbed?.close());

function authorize(p: Project, providerId: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const base = authorizeQuery(p, newPkce(), "app-state-1");
  return testbed.server.request(`/auth/oauth/authorize/${providerId}`, { query: { ...base, ...query }, headers });
}

async function flowCount(): Promise<number> {
  return (await testbed.server.instance.services.db.select().from(oauthFlows)).length;
}

/** What each provider's authorization URL must look like (facts: the per-provider table). */
const EXPECTED: Record<string, { url: string; scope: string; pkce: boolean; params?: Record<string, string> }> = {
  google: {
    url: "https://accounts.google.com/o/oauth2/v2/auth",
    scope: "https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
    pkce: true,
    params: { include_granted_scopes: "true" },
  },
  github: { url: "https://github.com/login/oauth/authorize", scope: "user:email", pkce: true },
  microsoft: {
    url: "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize",
    scope: "User.Read openid offline_access",
    pkce: true,
  },
  spotify: { url: "https://accounts.spotify.com/authorize", scope: "user-read-email user-read-private", pkce: true },
  facebook: {
    url: "https://www.facebook.com/v20.0/dialog/oauth/",
    scope: "openid public_profile email",
    pkce: true,
    params: { config_id: "fb-config-1" },
  },
  discord: { url: "https://discord.com/oauth2/authorize", scope: "identify email", pkce: true },
  gitlab: { url: "https://gitlab.com/oauth/authorize", scope: "read_user", pkce: true },
  bitbucket: { url: "https://bitbucket.org/site/oauth2/authorize", scope: "account email", pkce: true },
  linkedin: { url: "https://www.linkedin.com/oauth/v2/authorization", scope: "openid profile email", pkce: false },
  apple: { url: "https://appleid.apple.com/auth/authorize", scope: "name email", pkce: true, params: { response_mode: "form_post" } },
  x: { url: "https://twitter.com/i/oauth2/authorize", scope: "users.read offline.access tweet.read", pkce: true },
  twitch: { url: "https://id.twitch.tv/oauth2/authorize", scope: "user:read:email", pkce: true },
};

describe("the request each provider is sent", () => {
  it.each(OAUTH_PROVIDER_IDS)("%s (the project's own OAuth app)", async (id) => {
    const res = await authorize(standard, id, { provider_scope: "extra:one extra:two" });
    expect(res.status, res.text).toBe(307);
    const location = new URL(res.headers.get("location")!);
    const expected = EXPECTED[id]!;
    expect(`${location.origin}${location.pathname}`).toBe(expected.url);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: `client-${id}`,
      redirect_uri: `${API_URL}/api/v1/auth/oauth/callback/${id}`,
      response_type: "code",
      // The project's extra scopes come after the provider's own.
      scope: `${expected.scope} extra:one extra:two`,
      access_type: "offline",
      prompt: "consent",
      ...expected.params,
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (expected.pkce) {
      expect(params.code_challenge_method).toBe("S256");
      expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } else {
      expect(params.code_challenge).toBeUndefined();
    }
    // No secret ever goes into the browser's URL.
    expect(location.toString()).not.toContain(`secret-${id}`);
  });

  it.each(OAUTH_PROVIDER_IDS)("%s shared with MOCK credentials goes to the development provider", async (id) => {
    const p = await createProject(testbed.server, undefined, { oauth_providers: [{ id, type: "shared" }] });
    const res = await authorize(p, id);
    expect(res.status, res.text).toBe(307);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${testbed.provider.url}/auth`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: id,
      scope: "openid email profile offline_access",
      redirect_uri: `${API_URL}/api/v1/auth/oauth/callback/${id}`,
      prompt: "consent",
      code_challenge_method: "S256",
    });
  });

  it("a Microsoft app without a tenant signs in personal accounts", async () => {
    const p = await createProject(testbed.server, undefined, {
      oauth_providers: [{ id: "microsoft", type: "standard", client_id: "ms", client_secret: "s" }],
    });
    const res = await authorize(p, "microsoft");
    expect(res.headers.get("location")).toMatch(/^https:\/\/login\.microsoftonline\.com\/consumers\/oauth2\/v2\.0\/authorize\?/);
  });
});

describe("the flow it starts", () => {
  it("redirects (307) with the HttpOnly inner cookie of the flow's state, for 10 minutes", async () => {
    const before = await flowCount();
    const res = await authorize(project, "github");
    expect(res.status).toBe(307);
    const state = new URL(res.headers.get("location")!).searchParams.get("state")!;
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^stack-oauth-inner-${state}=true; Path=/; Expires=[^;]+; Max-Age=600; HttpOnly$`));
    expect(await flowCount()).toBe(before + 1);
  });

  it("marks the cookie Secure when the API is served over HTTPS", async () => {
    const secure = await startOAuthTestbed({ apiUrl: "https://auth.example.com" });
    try {
      const p = await createOAuthProject(secure.server);
      const res = await secure.server.request("/auth/oauth/authorize/github", { query: authorizeQuery(p, newPkce(), "s") });
      expect(res.status, res.text).toBe(307);
      expect(res.headers.get("set-cookie")).toMatch(/; Secure; HttpOnly$/);
    } finally {
      await secure.close();
    }
  });

  it("answers 200 {location} and sets no cookie in JSON mode", async () => {
    const res = await authorize(project, "github", { stack_response_mode: "json" });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(["location"]);
    expect(res.body.location.startsWith(`${testbed.provider.url}/auth?`)).toBe(true);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("takes the client credentials as the token endpoint does: <project>#main and the public-client sentinel", async () => {
    const res = await authorize(project, "github", { client_id: `${project.id}#main`, client_secret: "__stack_public_client__" });
    expect(res.status, res.text).toBe(307);
  });
});

describe("refusals, in the order the checks run", () => {
  it("an unknown project: INVALID_OAUTH_CLIENT_ID_OR_SECRET", async () => {
    const res = await authorize(project, "nope", { client_id: "00000000-0000-4000-8000-000000000000" });
    expectKnownError(res, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
  });

  it("a wrong publishable key: INVALID_PUBLISHABLE_CLIENT_KEY", async () => {
    const res = await authorize(project, "nope", { client_secret: "pck_wrong" });
    expectKnownError(res, "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
  });

  it("another branch: INVALID_OAUTH_CLIENT_ID_OR_SECRET naming the client id", async () => {
    const res = await authorize(project, "github", { client_id: `${project.id}#dev` });
    expectKnownError(res, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(res.body.details).toEqual({ client_id: `${project.id}#dev` });
  });

  it("a provider the project does not have, or an unknown one: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    expectKnownError(await authorize(project, "spotify"), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    expectKnownError(await authorize(project, "myspace"), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
  });

  it("a shared provider this server has no credentials for: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    const bare = await startOAuthTestbed({ sharedOAuthCredentials: {} });
    try {
      const p = await createOAuthProject(bare.server);
      const res = await bare.server.request("/auth/oauth/authorize/github", { query: authorizeQuery(p, newPkce(), "s") });
      expectKnownError(res, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    } finally {
      await bare.close();
    }
  });

  it("link without a token: 400 in plain text", async () => {
    expectPlainError(await authorize(project, "github", { type: "link" }), 400, /^\?token= query parameter is required for link type$/);
  });

  it("a token that is not an access token: UNPARSABLE_ACCESS_TOKEN", async () => {
    expectKnownError(await authorize(project, "github", { token: "not-a-token" }), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("another project's user's token: 403 in plain text", async () => {
    const other = await createOAuthProject(testbed.server);
    const user = await signUpUser(testbed.server, other);
    const res = await authorize(project, "github", { type: "link", token: user.accessToken });
    expectPlainError(res, 403, /^The access token is not valid for this project$/);
  });

  it("a signed-out session's token links nothing: ACCESS_TOKEN_EXPIRED", async () => {
    const user = await signUpUser(testbed.server, project);
    const out = await testbed.server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
    expect(out.status, out.text).toBe(200);
    expectKnownError(await authorize(project, "github", { type: "link", token: user.accessToken }), "ACCESS_TOKEN_EXPIRED", 401);
  });

  it("extra scopes with shared keys: OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", async () => {
    const res = await authorize(project, "github", { provider_scope: "repo" });
    expectKnownError(res, "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", 400);
  });

  it("an untrusted redirect_uri or after_callback_redirect_url: REDIRECT_URL_NOT_WHITELISTED, without details", async () => {
    const untrustedCallback = await authorize(project, "github", { redirect_uri: "https://evil.example.com/cb" });
    expectKnownError(untrustedCallback, "REDIRECT_URL_NOT_WHITELISTED", 400);
    expect(untrustedCallback.body).not.toHaveProperty("details");
    const untrustedNext = await authorize(project, "github", { after_callback_redirect_url: "https://evil.example.com/next" });
    expectKnownError(untrustedNext, "REDIRECT_URL_NOT_WHITELISTED", 400);
    expect(untrustedNext.body).not.toHaveProperty("details");
  });

  it("a trusted domain pattern is accepted, and allow_localhost off refuses localhost", async () => {
    const p = await createOAuthProject(testbed.server, {
      allow_localhost: false,
      domains: [{ domain: "https://*.example.com", handler_path: "/handler" }],
    });
    expect((await authorize(p, "github", { redirect_uri: "https://app.example.com/handler/oauth-callback" })).status).toBe(307);
    expectKnownError(await authorize(p, "github", { redirect_uri: APP_CALLBACK }), "REDIRECT_URL_NOT_WHITELISTED", 400);
  });

  it("a scope other than legacy: INVALID_SCOPE", async () => {
    expectKnownError(await authorize(project, "github", { scope: "openid" }), "INVALID_SCOPE", 400);
  });

  it("a malformed query: SCHEMA_ERROR", async () => {
    expectSchemaErrorIncluding(
      await authorize(project, "github", { code_challenge_method: "plain" }),
      "query.code_challenge_method must be one of the following values: S256",
    );
    expectSchemaErrorIncluding(await authorize(project, "github", { redirect_uri: "not a url" }), "query.redirect_uri contains spaces");
    expectSchemaErrorIncluding(
      await authorize(project, "github", { type: "sign_in" }),
      "query.type must be one of the following values: authenticate, link",
    );
    expectSchemaErrorIncluding(await authorize(project, "github", { surprise: "1" }), "query contains unknown properties: surprise");
    const missing = await testbed.server.request("/auth/oauth/authorize/github", { query: { client_id: project.id } });
    expectSchemaErrorIncluding(missing, "query.state must be defined");
  });

  it("stores no flow when it refuses", async () => {
    const before = await flowCount();
    await authorize(project, "github", { provider_scope: "repo" });
    await authorize(project, "github", { redirect_uri: "https://evil.example.com/cb" });
    expect(await flowCount()).toBe(before);
  });
});

describe("housekeeping", () => {
  it("deletes flows expired for longer than a day, and keeps the others", async () => {
    const db = testbed.server.instance.services.db;
    const stateOf = async () => new URL((await authorize(project, "github")).headers.get("location")!).searchParams.get("state")!;
    const [old, recent] = [await stateOf(), await stateOf()];
    const setExpiry = (state: string, ms: number) =>
      db
        .update(oauthFlows)
        .set({ expiresAt: new Date(Date.now() + ms) })
        .where(eq(oauthFlows.stateHash, sha256Hex(state)));
    await setExpiry(old, -EXPIRED_FLOW_RETENTION_MILLIS - 60_000);
    await setExpiry(recent, -60_000);
    const result = await testbed.server.instance.services.housekeeping.run();
    expect(result).toMatchObject({ expiredOAuthFlows: 1 });
    const left = await db.select({ stateHash: oauthFlows.stateHash }).from(oauthFlows);
    expect(left.map((r) => r.stateHash)).toContain(sha256Hex(recent));
    expect(left.map((r) => r.stateHash)).not.toContain(sha256Hex(old));
  });
});

describe("the bot challenge (action oauth_authenticate)", () => {
  it("applies the phase rules before the token is looked at, and keeps the outcome with the flow", async () => {
    const peer = await startSiteverifyPeer();
    peer.reply = (request) => {
      const [kind, action] = (request.response ?? "").split(":");
      return { json: kind === "pass" ? { success: true, action, hostname: "localhost", "error-codes": [] } : { success: false } };
    };
    const guarded = await startOAuthTestbed({ botChallenge: { url: peer.url, secretKey: "s", timeoutMillis: 2000 } });
    try {
      const p = await createOAuthProject(guarded.server);
      const go = (query: Record<string, string>) =>
        guarded.server.request("/auth/oauth/authorize/github", { query: { ...authorizeQuery(p, newPkce(), "s"), ...query } });
      // A failed invisible challenge wins over a bad token: the challenge is checked first.
      expectKnownError(await go({ bot_challenge_phase: "invisible", token: "not-a-token" }), "BOT_CHALLENGE_REQUIRED", 409);
      expectKnownError(await go({ bot_challenge_phase: "visible", bot_challenge_token: "fail" }), "BOT_CHALLENGE_FAILED", 400);
      expectKnownError(
        await go({ bot_challenge_phase: "invisible", bot_challenge_token: "pass:sign_up_with_credential" }),
        "BOT_CHALLENGE_REQUIRED",
        409,
      );
      const passed = await go({ bot_challenge_phase: "invisible", bot_challenge_token: "pass:oauth_authenticate" });
      expect(passed.status, passed.text).toBe(307);
      const older = await go({});
      expect(older.status, older.text).toBe(307);
      const outcomes = await guarded.server.instance.services.db.select({ data: oauthFlows.data }).from(oauthFlows);
      expect(outcomes.map((r) => (r.data as { bot_challenge: string }).bot_challenge).sort()).toEqual(["invalid", "ok"]);
      expectSchemaErrorIncluding(
        await go({ bot_challenge_unavailable: "true", bot_challenge_phase: "invisible" }),
        "query.bot_challenge_unavailable cannot be given together with bot_challenge_token or bot_challenge_phase",
      );
    } finally {
      await guarded.close();
      await peer.close();
    }
  });
});
