/**
 * The tokens a provider gave for an account, kept in oauth_tokens encrypted
 * with the server secret (a database dump alone must not let anyone call the
 * provider as the user). Each sign-in or link adds the new access token and
 * any refresh token; access tokens already expired are dropped then, since
 * nothing can use them.
 */
import { and, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { oauthTokens } from "../../../db/schema/index.ts";
import { decryptWithSecret, encryptWithSecret } from "../../../lib/secrets.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";

/** What the provider answered, as the callback read it. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
}

const PROVIDER_TOKEN_PURPOSE = "oauth-token";

export function sealProviderToken(serverSecret: string, token: string): string {
  return encryptWithSecret(serverSecret, PROVIDER_TOKEN_PURPOSE, token);
}

export function openProviderToken(serverSecret: string, sealed: string): string {
  return decryptWithSecret(serverSecret, PROVIDER_TOKEN_PURPOSE, sealed);
}

export async function storeProviderTokens(
  db: DbOrTx,
  serverSecret: string,
  t: Tenancy,
  oauthAccountId: string,
  tokens: ProviderTokens,
  now: Date,
): Promise<void> {
  const ofAccount = and(inTenancy(oauthTokens, t), eq(oauthTokens.oauthAccountId, oauthAccountId));
  await db.delete(oauthTokens).where(and(ofAccount, eq(oauthTokens.kind, "access"), lt(oauthTokens.expiresAt, now)));
  const rows: (typeof oauthTokens.$inferInsert)[] = [
    {
      ...t,
      oauthAccountId,
      kind: "access",
      tokenSealed: sealProviderToken(serverSecret, tokens.accessToken),
      scopes: tokens.scopes,
      expiresAt: tokens.expiresAt,
    },
  ];
  if (tokens.refreshToken !== null) {
    rows.push({
      ...t,
      oauthAccountId,
      kind: "refresh",
      tokenSealed: sealProviderToken(serverSecret, tokens.refreshToken),
      scopes: tokens.scopes,
      expiresAt: null,
    });
  }
  await db.insert(oauthTokens).values(rows);
}
