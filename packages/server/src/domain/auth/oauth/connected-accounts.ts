/**
 * Connected accounts: a user's access token at an OAuth provider, for the
 * app to call the provider as them. A cached access token is returned while
 * it has more than five minutes left and the provider still accepts it (a
 * user may revoke the app there at any time); otherwise a stored refresh
 * token is exchanged at the provider, under a lock on the user's accounts so
 * two requests never refresh (and maybe rotate) the same token at once. When
 * no refresh token is left that the provider takes, the connection no longer
 * grants the scopes: OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE, and the
 * user connects the account again.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { oauthAccounts, oauthTokens, type OAuthTokenRow } from "../../../db/schema/index.ts";
import { providerFailureKind, type OAuthProviderClient } from "../../../integrations/oauth/client.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { Services } from "../../../services.ts";
import type { ProjectConfig } from "../../projects/config.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { openProviderToken, sealProviderToken } from "./provider-tokens.ts";
import { connectProvider, enabledProvider, type EnabledProvider } from "./providers.ts";

/** A cached access token must outlive the request by this much to be handed out. */
const MIN_REMAINING_LIFETIME_MS = 5 * 60 * 1000;

export interface ConnectedAccount {
  provider: string;
  provider_account_id: string;
  user_id: string;
}

/** The user's provider accounts the app may use, oldest first. */
export async function listConnectedAccounts(db: DbOrTx, t: Tenancy, userId: string): Promise<ConnectedAccount[]> {
  const rows = await db
    .select({ provider: oauthAccounts.providerConfigId, providerAccountId: oauthAccounts.providerAccountId })
    .from(oauthAccounts)
    .where(and(inTenancy(oauthAccounts, t), eq(oauthAccounts.userId, userId), eq(oauthAccounts.allowConnectedAccounts, true)))
    .orderBy(oauthAccounts.createdAt, oauthAccounts.id);
  return rows.map((row) => ({ provider: row.provider, provider_account_id: row.providerAccountId, user_id: userId }));
}

/** Which of the user's connected accounts at the provider: any of them, or the one with this id at the provider. */
export interface ConnectedAccountTarget {
  userId: string;
  providerId: string;
  providerAccountId?: string | undefined;
}

export async function connectedAccountAccessToken(
  services: Pick<Services, "db" | "config" | "clock">,
  projectConfig: Pick<ProjectConfig, "oauth_providers">,
  t: Tenancy,
  target: ConnectedAccountTarget,
  scope: string | undefined,
): Promise<string> {
  const { db, config, clock } = services;
  const provider = enabledProvider(config, projectConfig, target.providerId);
  // The operator's shared keys do not give tokens out, except the development
  // provider (MOCK credentials), which has no real API behind it: tests and the
  // demo use its tokens.
  if (provider.shared && provider.connection.kind !== "mock") throw new KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys();
  const required = (scope ?? "").split(/\s+/).filter(Boolean);
  const accounts = { ...target, providerConfigId: provider.entry.id };
  const accountIds = await connectedAccountIds(db, t, accounts, false);
  if (accountIds.length === 0) throw new KnownErrors.OAuthConnectionNotConnectedToUser();

  const client = () => connectProvider(provider, clock);
  const cached = await cachedAccessToken(db, config.serverSecret, t, accountIds, required, clock.date(), client);
  if (cached !== null) return cached;

  const outcome = await db.transaction(async (tx) => {
    // Serializes refreshes of this user's accounts at the provider; whoever waited finds the token the first one stored.
    const locked = await connectedAccountIds(tx, t, accounts, true);
    // Not asked of the provider again: a token here was stored by the refresh this request waited for.
    const again = await cachedAccessToken(tx, config.serverSecret, t, locked, required, clock.date(), null);
    if (again !== null) return { token: again };
    return refreshAccessToken(tx, config.serverSecret, t, provider, locked, required, clock);
  });
  if ("token" in outcome) return outcome.token;
  throw outcome.error;
}

async function connectedAccountIds(
  db: DbOrTx,
  t: Tenancy,
  accounts: { userId: string; providerConfigId: string; providerAccountId?: string | undefined },
  lock: boolean,
): Promise<string[]> {
  const query = db
    .select({ id: oauthAccounts.id })
    .from(oauthAccounts)
    .where(
      and(
        inTenancy(oauthAccounts, t),
        eq(oauthAccounts.userId, accounts.userId),
        eq(oauthAccounts.providerConfigId, accounts.providerConfigId),
        eq(oauthAccounts.allowConnectedAccounts, true),
        ...(accounts.providerAccountId === undefined ? [] : [eq(oauthAccounts.providerAccountId, accounts.providerAccountId)]),
      ),
    )
    .orderBy(oauthAccounts.createdAt, oauthAccounts.id);
  return (lock ? await query.for("update") : await query).map((row) => row.id);
}

/** `now` (the clock's time) decides which access tokens still have enough life left. */
function tokensOf(db: DbOrTx, t: Tenancy, accountIds: string[], kind: "access" | "refresh", now: Date) {
  return db
    .select()
    .from(oauthTokens)
    .where(
      and(
        inTenancy(oauthTokens, t),
        inArray(oauthTokens.oauthAccountId, accountIds),
        eq(oauthTokens.kind, kind),
        eq(oauthTokens.isValid, true),
        ...(kind === "access" ? [gt(oauthTokens.expiresAt, new Date(now.getTime() + MIN_REMAINING_LIFETIME_MS))] : []),
      ),
    )
    .orderBy(desc(oauthTokens.createdAt));
}

const covers = (row: OAuthTokenRow, required: string[]) => required.every((s) => row.scopes.includes(s));

/**
 * A stored access token with the scopes, enough life left and, when `client`
 * is given, still accepted by the provider; one the provider refuses is kept
 * as invalid and never handed out again.
 */
async function cachedAccessToken(
  db: DbOrTx,
  serverSecret: string,
  t: Tenancy,
  accountIds: string[],
  required: string[],
  now: Date,
  client: (() => Promise<OAuthProviderClient>) | null,
): Promise<string | null> {
  for (const row of (await tokensOf(db, t, accountIds, "access", now)).filter((found) => covers(found, required))) {
    const token = openProviderToken(serverSecret, row.tokenSealed);
    if (client === null || (await accepted(client, token))) return token;
    await markInvalid(db, t, row.id);
  }
  return null;
}

/** As accessTokenAccepted: a provider that cannot be asked (not even discovered) says nothing against the token. */
async function accepted(client: () => Promise<OAuthProviderClient>, token: string): Promise<boolean> {
  let connected: OAuthProviderClient;
  try {
    connected = await client();
  } catch (error) {
    if (providerFailureKind(error) === "unavailable") return true;
    throw error;
  }
  return connected.accessTokenAccepted(token);
}

function markInvalid(db: DbOrTx, t: Tenancy, tokenId: string) {
  return db
    .update(oauthTokens)
    .set({ isValid: false })
    .where(and(inTenancy(oauthTokens, t), eq(oauthTokens.id, tokenId)));
}

/** Errors the provider gives for a refresh token it will never accept again. */
const REJECTED = new Set(["invalid_grant", "access_denied"]);

async function refreshAccessToken(
  tx: DbOrTx,
  serverSecret: string,
  t: Tenancy,
  provider: EnabledProvider,
  accountIds: string[],
  required: string[],
  clock: Clock,
): Promise<{ token: string } | { error: Error }> {
  const candidates = (await tokensOf(tx, t, accountIds, "refresh", clock.date())).filter((row) => covers(row, required));
  // None with the scopes, or the provider already refused those that had them: the user must connect again.
  if (candidates.length === 0) return { error: new KnownErrors.OAuthConnectionDoesNotHaveRequiredScope() };
  let client: OAuthProviderClient;
  try {
    client = await connectProvider(provider, clock);
  } catch (error) {
    if (providerFailureKind(error) === "unavailable") return { error: providerUnavailable() };
    throw error;
  }
  for (const row of candidates) {
    const refreshToken = openProviderToken(serverSecret, row.tokenSealed);
    let tokens;
    try {
      tokens = await client.refresh(refreshToken);
    } catch (error) {
      const kind = providerFailureKind(error);
      if (kind !== null && REJECTED.has(kind)) {
        // Kept (committed) as invalid: the provider will not take it again.
        await markInvalid(tx, t, row.id);
        continue;
      }
      if (kind === "unavailable") return { error: providerUnavailable() };
      if (kind === "invalid_client") {
        return {
          error: new StatusError(
            400,
            "Invalid client credentials for this OAuth provider. Please ensure the provider's client id and secret in the Latchkey dashboard are correct.",
          ),
        };
      }
      throw error;
    }
    const base = { ...t, oauthAccountId: row.oauthAccountId, scopes: row.scopes };
    await tx.insert(oauthTokens).values({
      ...base,
      kind: "access",
      tokenSealed: sealProviderToken(serverSecret, tokens.accessToken),
      expiresAt: tokens.expiresAt,
    });
    // Some providers send the same refresh token back; a different one means it rotated and the old one is spent.
    if (tokens.refreshToken !== null && tokens.refreshToken !== refreshToken) {
      await markInvalid(tx, t, row.id);
      await tx.insert(oauthTokens).values({ ...base, kind: "refresh", tokenSealed: sealProviderToken(serverSecret, tokens.refreshToken) });
    }
    return { token: tokens.accessToken };
  }
  return { error: new KnownErrors.OAuthConnectionDoesNotHaveRequiredScope() };
}

function providerUnavailable(): StatusError {
  return new StatusError(503, "The OAuth provider is temporarily unavailable. Please try again.");
}
