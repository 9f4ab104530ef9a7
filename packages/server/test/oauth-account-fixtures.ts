/**
 * Calling signInOrLinkWithProvider as the OAuth callback does (inside a
 * transaction), with made-up provider profiles, and reading back what it
 * stored.
 */
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { oauthAccounts, oauthTokens } from "../src/db/schema/index.ts";
import { signInOrLinkWithProvider, type OAuthSignInInput, type ProviderTokens } from "../src/domain/auth/oauth/accounts.ts";
import type { ProviderProfile } from "../src/domain/auth/oauth/new-user.ts";
import type { Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";

let counter = 0;

/** A provider user nobody has seen yet; `email: null` for a provider that gives none. */
export function providerProfile(overrides: Partial<ProviderProfile> = {}): ProviderProfile {
  counter += 1;
  return {
    accountId: `${Date.now().toString(36)}${counter}`,
    email: `provider-${Date.now().toString(36)}-${counter}@example.com`,
    emailVerified: true,
    displayName: `Provider User ${counter}`,
    profileImageUrl: `https://avatars.example.com/u/${counter}.png`,
    ...overrides,
  };
}

export function providerTokens(overrides: Partial<ProviderTokens> = {}): ProviderTokens {
  counter += 1;
  return {
    accessToken: `provider-access-token-${counter}-${Math.random().toString(36).slice(2)}`,
    refreshToken: `provider-refresh-token-${counter}-${Math.random().toString(36).slice(2)}`,
    expiresAt: new Date(Date.now() + 3600_000),
    scopes: ["openid", "email"],
    ...overrides,
  };
}

export type SignInCall = Partial<Omit<OAuthSignInInput, "profile">> & { profile: ProviderProfile };

/** One callback's call, in a transaction of its own, with the project as it is now. */
export async function oauthSignIn(server: TestServer, project: Pick<Project, "id">, call: SignInCall) {
  const services = server.instance.services;
  const row = await services.projects.get(project.id);
  if (!row) throw new Error(`No project ${project.id}`);
  const input: OAuthSignInInput = {
    providerConfigId: "github",
    tokens: providerTokens(),
    type: "authenticate",
    userId: null,
    signUpAllowed: true,
    ...call,
  };
  return services.events.transaction(services.db, (tx) => signInOrLinkWithProvider(services, tx, row, "main", input));
}

/** Expects the call to fail with this coded error; returns it. */
export async function expectSignInError(server: TestServer, project: Pick<Project, "id">, call: SignInCall, code: string, status: number) {
  const error: any = await oauthSignIn(server, project, call).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").not.toBeNull();
  expect(error.code, String(error)).toBe(code);
  expect(error.statusCode).toBe(status);
  return error;
}

/** The project's OAuth account rows, as stored. */
export function storedAccounts(server: TestServer, project: Pick<Project, "id">, providerAccountId?: string) {
  return server.instance.services.db
    .select()
    .from(oauthAccounts)
    .where(
      and(
        eq(oauthAccounts.projectId, project.id),
        providerAccountId === undefined ? undefined : eq(oauthAccounts.providerAccountId, providerAccountId),
      ),
    )
    .orderBy(oauthAccounts.createdAt, oauthAccounts.id);
}

export function storedTokens(server: TestServer, oauthAccountId: string) {
  return server.instance.services.db
    .select()
    .from(oauthTokens)
    .where(eq(oauthTokens.oauthAccountId, oauthAccountId))
    .orderBy(oauthTokens.createdAt, oauthTokens.kind);
}

/** The project's user count (anonymous ones included), through the server API. */
export async function userCount(server: TestServer, project: Pick<Project, "server">): Promise<number> {
  const res = await server.request("/users", { as: project.server, query: { include_anonymous: true } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.length;
}

export async function serverUser(server: TestServer, project: Pick<Project, "server">, userId: string) {
  // Anonymous users too: they are found by id only when asked for.
  const res = await server.request(`/users/${userId}`, { as: project.server, query: { include_anonymous: true } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** An OAuth-enabled project config: GitHub and Google. */
export const OAUTH_CONFIG = {
  oauth_providers: [
    { id: "github", type: "shared" },
    { id: "google", type: "shared" },
  ],
};
