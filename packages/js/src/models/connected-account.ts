/**
 * Connected accounts: a user's account at an OAuth provider whose access
 * token the app may use to call the provider's API as them. The server keeps
 * the provider's tokens (refreshing them as they expire); the SDK asks for an
 * access token with the scopes it needs.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import { Result } from "../result.ts";

export interface OAuthConnection {
  /** The provider (`github`, `google`, …). */
  readonly id: string;
  /** A current access token with the connection's scopes; throws if the provider no longer grants one. */
  getAccessToken(): Promise<{ accessToken: string }>;
}

export interface GetConnectedAccountOptions {
  /** What to do when there is no usable connection (default "return-null"); "redirect" connects one (browsers only). */
  or?: "redirect" | "throw" | "return-null";
  /** Scopes the access token must carry. */
  scopes?: readonly string[];
}

export interface ConnectedAccountContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** `me` for the signed-in user, else the user's id. */
  userIdOrMe: string;
  /** A connection found it has no token any more (revoked at the provider, disconnected, scopes lost): cached answers saying it has are stale. */
  tokenGone?: () => void;
}

/**
 * An access token of the user's `provider` account with `scope` (space-separated), or
 * null when there is none to be had: no such connection, one without those scopes, or
 * one the provider has revoked (the user connects again to get one).
 */
export async function connectedAccessToken(
  context: ConnectedAccountContext,
  provider: string,
  scope: string,
): Promise<{ accessToken: string } | null> {
  try {
    return { accessToken: await requestAccessToken(context, provider, scope) };
  } catch (error) {
    if (isNoTokenError(error)) return null;
    throw error;
  }
}

const NO_TOKEN_ERRORS = [KnownErrors.OAuthConnectionNotConnectedToUser, KnownErrors.OAuthConnectionDoesNotHaveRequiredScope] as const;

export function oauthConnection(context: ConnectedAccountContext, provider: string, scope: string): OAuthConnection {
  return {
    id: provider,
    // Asked each time: the server answers from its own store and refreshes an expired token, so the SDK never holds a stale one.
    getAccessToken: async () => {
      try {
        return { accessToken: await requestAccessToken(context, provider, scope) };
      } catch (error) {
        if (isNoTokenError(error)) context.tokenGone?.();
        throw error;
      }
    },
  };
}

function isNoTokenError(error: unknown): boolean {
  return NO_TOKEN_ERRORS.some((kind) => error instanceof kind);
}

async function requestAccessToken(context: ConnectedAccountContext, provider: string, scope: string): Promise<string> {
  const body = await context.api.call("POST /connected-accounts/:user_id/:provider_id/access-token", {
    accessType: context.accessType,
    session: context.session,
    params: { user_id: context.userIdOrMe, provider_id: provider },
    body: scope ? { scope } : {},
  });
  return body.access_token;
}

/**
 * One of a user's connected accounts, as `listConnectedAccounts` lists them:
 * a provider account the user allowed the app to use. A user may have several
 * at one provider; each gives its own access token.
 */
export interface ConnectedAccount {
  /** The provider, as in `OAuthConnection` (kept for code written against it; `provider` says the same). */
  readonly id: string;
  /** The project's provider entry (`github`, `google`, …). */
  readonly provider: string;
  /** The user's id at the provider. */
  readonly providerAccountId: string;
  /**
   * A current access token of this account with `scopes`, or an error Result
   * when the account cannot give one (the scopes were not granted, or the user
   * revoked the app at the provider: connect it again with
   * `linkConnectedAccount`). Asked of the server each time.
   */
  getAccessToken(options?: { scopes?: readonly string[] }): Promise<Result<{ accessToken: string }, ConnectedAccountTokenError>>;
}

/** Why a connected account gives no access token. */
export type ConnectedAccountTokenError =
  | InstanceType<typeof KnownErrors.OAuthConnectionNotConnectedToUser>
  | InstanceType<typeof KnownErrors.OAuthConnectionDoesNotHaveRequiredScope>
  | InstanceType<typeof KnownErrors.OAuthProviderNotFoundOrNotEnabled>
  | InstanceType<typeof KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys>;

const ACCOUNT_TOKEN_ERRORS = [
  KnownErrors.OAuthConnectionNotConnectedToUser,
  KnownErrors.OAuthConnectionDoesNotHaveRequiredScope,
  KnownErrors.OAuthProviderNotFoundOrNotEnabled,
  KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
] as const;

/** The user's connected accounts, oldest first. */
export async function listConnectedAccounts(context: ConnectedAccountContext): Promise<ConnectedAccount[]> {
  const body = await context.api.call("GET /connected-accounts/:user_id", {
    accessType: context.accessType,
    session: context.session,
    params: { user_id: context.userIdOrMe },
  });
  return body.items.map((item) => connectedAccount(context, item.provider, item.provider_account_id));
}

function connectedAccount(context: ConnectedAccountContext, provider: string, providerAccountId: string): ConnectedAccount {
  return {
    id: provider,
    provider,
    providerAccountId,
    getAccessToken: (options = {}) =>
      Result.of<{ accessToken: string }, ConnectedAccountTokenError>(ACCOUNT_TOKEN_ERRORS, async () => {
        const scope = scopeString(options.scopes);
        const body = await context.api.call("POST /connected-accounts/:user_id/:provider_id/:provider_account_id/access-token", {
          accessType: context.accessType,
          session: context.session,
          params: { user_id: context.userIdOrMe, provider_id: provider, provider_account_id: providerAccountId },
          body: scope ? { scope } : {},
        });
        return { accessToken: body.access_token };
      }),
  };
}

/** The first of `accounts` at `provider` that gives an access token with `scopes`, or null. */
export async function usableConnectedAccount(
  accounts: readonly ConnectedAccount[],
  provider: string,
  scopes: readonly string[] | undefined,
): Promise<ConnectedAccount | null> {
  for (const account of accounts.filter((candidate) => candidate.provider === provider)) {
    if ((await account.getAccessToken(scopes ? { scopes } : {})).status === "ok") return account;
  }
  return null;
}

/** What `or: "throw"` throws when a user has no usable connection. */
export function noConnectionError(who: string, provider: string, scope: string): Error {
  return new Error(`${who} has no connected ${provider} account${scope ? ` with the scopes ${scope}` : ""}.`);
}

/** The scopes as the endpoint takes them: space-separated, each once. */
export function scopeString(scopes: readonly string[] | undefined): string {
  return [...new Set((scopes ?? []).flatMap((scope) => scope.split(/\s+/)).filter(Boolean))].join(" ");
}
