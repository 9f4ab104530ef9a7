/**
 * POST /connected-accounts/:user_id/:provider_id/access-token against the
 * development OpenID provider running as its own process: users sign up
 * through it, then ask for their provider access token. The provider keeps
 * its own clock, so expiry is moved in our database rather than by faking Date.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthAccounts, oauthTokens } from "../src/db/schema/index.ts";
import { openProviderToken, sealProviderToken } from "../src/domain/auth/oauth/provider-tokens.ts";
import { expectPlainError, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError } from "./harness.ts";
import { expireAccessTokens as expireStoredAccessTokens, revokeAtProvider, tokensOf as storedTokensOf } from "./provider-token-fixtures.ts";
import { createOAuthProject, signInWithProvider, startOAuthTestbed, type OAuthTestbed } from "./oauth-fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  testbed = await startOAuthTestbed(
    {
      sharedOAuthCredentials: {
        ...Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
        // A shared provider with the operator's real keys, which never hands tokens out.
        spotify: { kind: "real", clientId: "latchkey-spotify", clientSecret: "latchkey-spotify-secret" },
      },
      // The provider rotates refresh tokens, and ends the grant when a spent one is used again: the hard case.
    },
    { OIDC_ROTATE_REFRESH_TOKENS: "true" },
  );
  project = await createOAuthProject(testbed.server, {
    oauth_providers: [
      { id: "github", type: "shared" },
      { id: "google", type: "shared" },
      { id: "spotify", type: "shared" },
    ],
  });
});
afterAll(() => testbed?.close());

const db = () => testbed.server.instance.services.db;
const secret = () => testbed.server.config.serverSecret;

interface SignedUp {
  userId: string;
  accessToken: string;
  accountId: string;
}

async function signUp(): Promise<SignedUp> {
  const res = await signInWithProvider(testbed, project, uniqueEmail("connected"));
  expect(res.status, res.text).toBe(200);
  const userId = JSON.parse(Buffer.from(res.body.access_token.split(".")[1], "base64url").toString()).sub as string;
  const [account] = await db().select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId));
  return { userId, accessToken: res.body.access_token, accountId: account!.id };
}

function askToken(user: SignedUp, body: Record<string, unknown> = {}, options: { as?: "client" | "server"; userId?: string } = {}) {
  const as = options.as === "server" ? project.server : { ...project.client, accessToken: user.accessToken };
  return testbed.server.request(`/connected-accounts/${options.userId ?? "me"}/github/access-token`, { method: "POST", as, body });
}

const tokensOf = (accountId: string, kind: "access" | "refresh") => storedTokensOf(testbed.server, accountId, kind);
const expireAccessTokens = (accountId: string) => expireStoredAccessTokens(testbed.server, accountId);

/** The provider's user-info endpoint accepts the token. */
async function providerAccepts(token: string): Promise<boolean> {
  const res = await fetch(`${testbed.provider.url}/me`, { headers: { authorization: `Bearer ${token}` } });
  return res.ok;
}

describe("POST /connected-accounts/:user_id/:provider_id/access-token", () => {
  it("returns the cached access token from the sign-up (201), for the client and for a server", async () => {
    const user = await signUp();
    const [stored] = await tokensOf(user.accountId, "access");
    const res = await askToken(user);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ access_token: openProviderToken(secret(), stored!.tokenSealed) });
    expect(await providerAccepts(res.body.access_token)).toBe(true);

    const byServer = await askToken(user, { scope: "openid email" }, { as: "server", userId: user.userId });
    expect(byServer.status, byServer.text).toBe(201);
    expect(byServer.body.access_token).toBe(res.body.access_token);
    expect(await tokensOf(user.accountId, "access")).toHaveLength(1);
  });

  it("refreshes an access token about to expire at the provider and stores the new one", async () => {
    const user = await signUp();
    const [oldAccess] = await tokensOf(user.accountId, "access");
    await db()
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() + 4 * 60 * 1000) })
      .where(eq(oauthTokens.id, oldAccess!.id));
    const res = await askToken(user, { scope: "email" });
    expect(res.status, res.text).toBe(201);
    const fresh = res.body.access_token as string;
    expect(fresh).not.toBe(openProviderToken(secret(), oldAccess!.tokenSealed));
    expect(await providerAccepts(fresh)).toBe(true);

    const access = await tokensOf(user.accountId, "access");
    expect(access).toHaveLength(2);
    expect(openProviderToken(secret(), access[1]!.tokenSealed)).toBe(fresh);
    expect(access[1]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60 * 1000);
    expect(access[1]!.scopes).toEqual(expect.arrayContaining(["openid", "email", "offline_access"]));
    // The provider rotated the refresh token: the old one is spent, the new one kept with the same scopes.
    const refresh = await tokensOf(user.accountId, "refresh");
    expect(refresh.map((r) => r.isValid)).toEqual([false, true]);
    expect(openProviderToken(secret(), refresh[1]!.tokenSealed)).not.toBe(openProviderToken(secret(), refresh[0]!.tokenSealed));
    expect(refresh[1]!.scopes).toEqual(refresh[0]!.scopes);

    // The new refresh token works in turn.
    await expireAccessTokens(user.accountId);
    const third = await askToken(user);
    expect(third.status, third.text).toBe(201);
    expect(await providerAccepts(third.body.access_token)).toBe(true);
    expect((await tokensOf(user.accountId, "refresh")).map((r) => r.isValid)).toEqual([false, false, true]);

    // The next request gets the stored one.
    const again = await askToken(user);
    expect(again.body.access_token).toBe(third.body.access_token);
  });

  it("refuses scopes the connection was not granted: OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", async () => {
    const user = await signUp();
    const before = await tokensOf(user.accountId, "access");
    const res = await askToken(user, { scope: "email repo:write" });
    expectKnownError(res, "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400);
    expect(await tokensOf(user.accountId, "access")).toEqual(before);
  });

  it("refuses a user without a connected account for the provider: OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", async () => {
    const user = await signUp();
    await db().update(oauthAccounts).set({ allowConnectedAccounts: false }).where(eq(oauthAccounts.id, user.accountId));
    expectKnownError(await askToken(user), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
    const google = await testbed.server.request("/connected-accounts/me/google/access-token", {
      method: "POST",
      as: { ...project.client, accessToken: user.accessToken },
      body: {},
    });
    expectKnownError(google, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
  });

  it("refuses a client acting for another user (403 plain); a server may", async () => {
    const user = await signUp();
    const other = await signUp();
    expectPlainError(await askToken(user, {}, { userId: other.userId }), 403);
    const byServer = await askToken(user, {}, { as: "server", userId: other.userId });
    expect(byServer.status, byServer.text).toBe(201);
  });

  it("refuses providers that are not configured, and shared ones with the operator's real keys", async () => {
    const user = await signUp();
    const as = { ...project.client, accessToken: user.accessToken };
    const missing = await testbed.server.request("/connected-accounts/me/discord/access-token", { method: "POST", as, body: {} });
    expectKnownError(missing, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    const shared = await testbed.server.request("/connected-accounts/me/spotify/access-token", { method: "POST", as, body: {} });
    expectKnownError(shared, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", 400);
  });

  it("the provider refuses the refresh token: OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE, and it is marked invalid", async () => {
    const user = await signUp();
    await revokeAtProvider(testbed, user.accountId);
    await expireAccessTokens(user.accountId);
    expectKnownError(await askToken(user), "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400);
    expect((await tokensOf(user.accountId, "refresh")).map((r) => r.isValid)).toEqual([false]);
    // Nothing left to try: the same answer, without asking the provider again.
    expectKnownError(await askToken(user), "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400);
    expect(await tokensOf(user.accountId, "access")).toHaveLength(1);
  });

  it("never hands back a stored access token the provider has revoked, though it has not expired", async () => {
    const user = await signUp();
    const [stored] = await tokensOf(user.accountId, "access");
    const revoked = openProviderToken(secret(), stored!.tokenSealed);
    await revokeAtProvider(testbed, user.accountId);
    expect(await providerAccepts(revoked)).toBe(false);
    // The refresh is refused too (the user revoked the app): the connection no longer grants anything.
    expectKnownError(await askToken(user), "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400);
    expect((await tokensOf(user.accountId, "access")).map((r) => r.isValid)).toEqual([false]);
    expect((await tokensOf(user.accountId, "refresh")).map((r) => r.isValid)).toEqual([false]);
    expectKnownError(await askToken(user), "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400);
  });

  it("refreshes instead when the provider no longer takes the stored access token", async () => {
    const user = await signUp();
    const [stored] = await tokensOf(user.accountId, "access");
    // A token the provider does not know stands for one it has revoked while the grant lives on.
    await db()
      .update(oauthTokens)
      .set({ tokenSealed: sealProviderToken(secret(), "revoked-at-the-provider") })
      .where(eq(oauthTokens.id, stored!.id));
    const res = await askToken(user);
    expect(res.status, res.text).toBe(201);
    expect(res.body.access_token).not.toBe("revoked-at-the-provider");
    expect(await providerAccepts(res.body.access_token)).toBe(true);
    expect((await tokensOf(user.accountId, "access")).map((r) => r.isValid)).toEqual([false, true]);
    // The fresh one is handed out from now on.
    expect((await askToken(user)).body.access_token).toBe(res.body.access_token);
  });

  it("requests needing a refresh at once all get the one token a single refresh stored", async () => {
    const user = await signUp();
    await expireAccessTokens(user.accountId);
    const answers = await Promise.all(Array.from({ length: 4 }, () => askToken(user)));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    // The others waited for the first refresh and took the token it stored.
    expect(new Set(answers.map((res) => res.body.access_token)).size).toBe(1);
    expect(await providerAccepts(answers[0]!.body.access_token)).toBe(true);
    expect(await tokensOf(user.accountId, "access")).toHaveLength(2);
    // One rotation only: a second one would have reused the spent token and ended the grant.
    expect((await tokensOf(user.accountId, "refresh")).map((r) => r.isValid)).toEqual([false, true]);
  });
});

describe("with a provider that keeps its refresh tokens", () => {
  let keeping: OAuthTestbed;
  let keepingProject: Project;
  beforeAll(async () => {
    keeping = await startOAuthTestbed();
    keepingProject = await createOAuthProject(keeping.server);
  });
  afterAll(() => keeping?.close());

  it("refreshes and keeps using the same refresh token", async () => {
    const signIn = await signInWithProvider(keeping, keepingProject, uniqueEmail("keeping"));
    expect(signIn.status, signIn.text).toBe(200);
    const as = { ...keepingProject.client, accessToken: signIn.body.access_token as string };
    const keepingDb = keeping.server.instance.services.db;
    const [token] = await keepingDb.select().from(oauthTokens).where(eq(oauthTokens.kind, "access"));
    const accountId = token!.oauthAccountId;
    const ask = () => keeping.server.request("/connected-accounts/me/github/access-token", { method: "POST", as, body: {} });
    for (const round of [1, 2]) {
      await expireStoredAccessTokens(keeping.server, accountId);
      const res = await ask();
      expect(res.status, `round ${round}: ${res.text}`).toBe(201);
      const info = await fetch(`${keeping.provider.url}/me`, { headers: { authorization: `Bearer ${res.body.access_token}` } });
      expect(info.ok).toBe(true);
    }
    const refresh = await storedTokensOf(keeping.server, accountId, "refresh");
    expect(refresh.map((r) => r.isValid)).toEqual([true]);
  });
});
