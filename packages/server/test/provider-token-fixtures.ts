/**
 * The provider tokens the server keeps for a user's OAuth account, as the
 * connected-account tests (here and the SDK's) read and age them: the
 * development provider keeps its own clock, so expiry is moved in our
 * database, and a user revoking the app at the provider is its
 * /revoke-refresh-token.
 */
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { oauthTokens } from "../src/db/schema/index.ts";
import { openProviderToken } from "../src/domain/auth/oauth/provider-tokens.ts";
import type { OAuthTestbed } from "./oauth-fixtures.ts";
import type { TestServer } from "./harness.ts";

/** The account's stored tokens of one kind, oldest first. */
export function tokensOf(server: TestServer, oauthAccountId: string, kind: "access" | "refresh") {
  return server.instance.services.db
    .select()
    .from(oauthTokens)
    .where(and(eq(oauthTokens.oauthAccountId, oauthAccountId), eq(oauthTokens.kind, kind)))
    .orderBy(oauthTokens.createdAt);
}

/** Makes every stored access token of the account look expired (they are in the provider's eyes still valid; only our cache decides). */
export async function expireAccessTokens(server: TestServer, oauthAccountId: string): Promise<void> {
  await server.instance.services.db
    .update(oauthTokens)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(and(eq(oauthTokens.oauthAccountId, oauthAccountId), eq(oauthTokens.kind, "access")));
}

/** The user revokes the app at the provider: the account's refresh token (the first stored) is refused from now on. */
export async function revokeAtProvider(testbed: OAuthTestbed, oauthAccountId: string): Promise<void> {
  const [refresh] = await tokensOf(testbed.server, oauthAccountId, "refresh");
  expect(refresh, "the account should have a refresh token").toBeDefined();
  const revoke = await fetch(`${testbed.provider.url}/revoke-refresh-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: openProviderToken(testbed.server.config.serverSecret, refresh!.tokenSealed) }),
  });
  expect(revoke.status).toBe(204);
}
