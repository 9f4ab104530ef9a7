/**
 * Listing a user's connected accounts (GET /connected-accounts/:user_id) and
 * asking for the token of one of them among several of a provider
 * (POST /connected-accounts/:user_id/:provider_id/:provider_account_id/access-token),
 * against the development OpenID provider running as its own process.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthAccounts } from "../src/db/schema/index.ts";
import { openProviderToken } from "../src/domain/auth/oauth/provider-tokens.ts";
import { expectPlainError, jwtPayload, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth } from "./harness.ts";
import {
  exchangeCode,
  createOAuthProject,
  signInToCode,
  signInWithProvider,
  startOAuthTestbed,
  type OAuthTestbed,
} from "./oauth-fixtures.ts";
import { tokensOf } from "./provider-token-fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  testbed = await startOAuthTestbed({
    sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
  });
  project = await createOAuthProject(testbed.server, {
    oauth_providers: [
      { id: "github", type: "shared" },
      { id: "google", type: "shared" },
    ],
  });
});
afterAll(() => testbed?.close());

const db = () => testbed.server.instance.services.db;

interface SignedUp {
  userId: string;
  accessToken: string;
  email: string;
}

async function signUp(providerId = "github"): Promise<SignedUp> {
  const email = uniqueEmail("listed");
  const res = await signInWithProvider(testbed, project, email, { providerId });
  expect(res.status, res.text).toBe(200);
  return { userId: jwtPayload(res.body.access_token).sub as string, accessToken: res.body.access_token, email };
}

/** Connects another provider account to the user (the link flow); its e-mail is its id at the development provider. */
async function link(user: SignedUp, providerId: string, email = uniqueEmail("linked")): Promise<string> {
  const { code, verifier } = await signInToCode(testbed, project, email, { providerId, query: { type: "link", token: user.accessToken } });
  const res = await exchangeCode(testbed.server, project, { code, verifier });
  expect(res.status, res.text).toBe(200);
  return email;
}

const client = (user: SignedUp) => ({ ...project.client, accessToken: user.accessToken });

function list(userId: string, as: Auth) {
  return testbed.server.request(`/connected-accounts/${userId}`, { as });
}

function askToken(user: SignedUp, providerId: string, providerAccountId: string, body: Record<string, unknown> = {}) {
  return testbed.server.request(`/connected-accounts/me/${providerId}/${encodeURIComponent(providerAccountId)}/access-token`, {
    method: "POST",
    as: client(user),
    body,
  });
}

describe("GET /connected-accounts/:user_id", () => {
  it("lists the user's accounts that allow connected accounts, for the client (me) and a server", async () => {
    const user = await signUp();
    const second = await link(user, "github");
    const google = await link(user, "google");
    const expected = [
      { provider: "github", provider_account_id: user.email, user_id: user.userId },
      { provider: "github", provider_account_id: second, user_id: user.userId },
      { provider: "google", provider_account_id: google, user_id: user.userId },
    ];
    const mine = await list("me", client(user));
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({ is_paginated: false, items: expected });
    const byServer = await list(user.userId, project.server);
    expect(byServer.body).toEqual(mine.body);

    // An account kept for sign-in only is not listed.
    await db().update(oauthAccounts).set({ allowConnectedAccounts: false }).where(eq(oauthAccounts.providerAccountId, google));
    expect((await list("me", client(user))).body.items).toEqual(expected.slice(0, 2));
  });

  it("a user without provider accounts has none", async () => {
    const user = await signUp();
    await db().update(oauthAccounts).set({ allowConnectedAccounts: false }).where(eq(oauthAccounts.userId, user.userId));
    expect((await list("me", client(user))).body).toEqual({ is_paginated: false, items: [] });
  });

  it("a client reading another user: 403 plain; me without a session: CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    const user = await signUp();
    const other = await signUp();
    expectPlainError(await list(other.userId, client(user)), 403);
    expectKnownError(await list("me", project.client), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await list("me", project.server), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });
});

describe("POST /connected-accounts/:user_id/:provider_id/:provider_account_id/access-token", () => {
  it("answers the token of the account named, among several of the provider", async () => {
    const user = await signUp();
    const second = await link(user, "github");
    const accounts = await db().select().from(oauthAccounts).where(eq(oauthAccounts.userId, user.userId));
    const secret = testbed.server.config.serverSecret;
    for (const providerAccountId of [user.email, second]) {
      const account = accounts.find((a) => a.providerAccountId === providerAccountId)!;
      const [stored] = await tokensOf(testbed.server, account.id, "access");
      const res = await askToken(user, "github", providerAccountId, { scope: "email" });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ access_token: openProviderToken(secret, stored!.tokenSealed) });
    }
    const byServer = await testbed.server.request(`/connected-accounts/${user.userId}/github/${second}/access-token`, {
      method: "POST",
      as: project.server,
      body: {},
    });
    expect(byServer.status, byServer.text).toBe(201);
  });

  it("an account that is not the user's, another provider's, or not for connection: OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", async () => {
    const user = await signUp();
    const other = await signUp();
    const google = await link(user, "google");
    expectKnownError(await askToken(user, "github", "nobody@example.com"), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
    expectKnownError(await askToken(user, "github", other.email), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
    expectKnownError(await askToken(user, "github", google), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
    await db().update(oauthAccounts).set({ allowConnectedAccounts: false }).where(eq(oauthAccounts.providerAccountId, google));
    expectKnownError(await askToken(user, "google", google), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400);
  });

  it("an unknown or unconfigured provider: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED; another user: 403", async () => {
    const user = await signUp();
    const other = await signUp();
    expectKnownError(await askToken(user, "discord", user.email), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    expectKnownError(await askToken(user, "myspace", user.email), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    const res = await testbed.server.request(`/connected-accounts/${other.userId}/github/${other.email}/access-token`, {
      method: "POST",
      as: client(user),
      body: {},
    });
    expectPlainError(res, 403);
  });

  it("scopes the account was not granted: OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", async () => {
    const user = await signUp();
    expectKnownError(
      await askToken(user, "github", user.email, { scope: "repo:write" }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
  });
});
