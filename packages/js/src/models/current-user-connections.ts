/**
 * The signed-in user's accounts at OAuth providers and the connected accounts
 * an app may use (provider access tokens): the part of CurrentUser that
 * reaches providers. Each method hands over to models/connected-account.ts.
 */
import type { CacheEntry } from "../cache/entry.ts";
import type { Session } from "../session/session.ts";
import {
  listConnectedAccounts,
  noConnectionError,
  oauthConnection,
  scopeString,
  usableConnectedAccount,
  type ConnectedAccount,
  type ConnectedAccountContext,
  type GetConnectedAccountOptions,
  type OAuthConnection,
} from "./connected-account.ts";
import type { OAuthProvider } from "./oauth-provider.ts";
import type { UserContext } from "./user-fields.ts";
import { UserWithTeams } from "./user-with-teams.ts";

export abstract class UserWithConnections extends UserWithTeams {
  protected abstract readonly context: UserContext;
  protected abstract get session(): Session;

  /** This user's accounts at OAuth providers, oldest first. */
  listOAuthProviders(): Promise<OAuthProvider[]> {
    return this.context.oauthProviders().get();
  }

  /** The cache entry behind `listOAuthProviders`, for hooks (`useOAuthProviders` of @latchkey/react). */
  _oauthProvidersEntry(): CacheEntry<OAuthProvider[]> {
    return this.context.oauthProviders();
  }

  /** One of this user's provider accounts by its id, or null. */
  async getOAuthProvider(id: string): Promise<OAuthProvider | null> {
    return (await this.listOAuthProviders()).find((account) => account.id === id) ?? null;
  }

  /**
   * This user's connected account at `provider` whose access token has the
   * given scopes, or (by `or`) null, an error, or the provider's page to
   * connect one (or grant the missing scopes) and come back here.
   */
  getConnectedAccount(provider: string, options: GetConnectedAccountOptions & { or: "redirect" }): Promise<OAuthConnection>;
  getConnectedAccount(provider: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
  async getConnectedAccount(provider: string, options: GetConnectedAccountOptions = {}): Promise<OAuthConnection | null> {
    const scope = scopeString(options.scopes);
    const connected = this.oauthProviders.some((account) => account.id === provider);
    const token = connected ? await this.context.connectedAccessToken(provider, scope).get() : null;
    if (token) return oauthConnection(this.connectedAccountContext(provider, scope), provider, scope);
    return this._noConnection(provider, options);
  }

  /** The cache entry behind `getConnectedAccount`, for hooks (`useConnectedAccount` of @latchkey/react). */
  _connectedAccessTokenEntry(provider: string, scopes?: readonly string[]): CacheEntry<{ accessToken: string } | null> {
    return this.context.connectedAccessToken(provider, scopeString(scopes));
  }

  /** What `getConnectedAccount` does without a usable connection (hooks share it). */
  async _noConnection(provider: string, options: GetConnectedAccountOptions = {}): Promise<null> {
    if (options.or === "redirect") await this.linkConnectedAccount(provider, options.scopes ? { scopes: options.scopes } : {});
    if (options.or === "throw") throw noConnectionError("The user", provider, scopeString(options.scopes));
    return null;
  }

  /** A connection object for a token `_connectedAccessTokenEntry` found. */
  _oauthConnection(provider: string, scopes?: readonly string[]): OAuthConnection {
    const scope = scopeString(scopes);
    return oauthConnection(this.connectedAccountContext(provider, scope), provider, scope);
  }

  /** This user's connected accounts (provider accounts the app may use), oldest first; several may be at one provider. */
  listConnectedAccounts(): Promise<ConnectedAccount[]> {
    return listConnectedAccounts(this.connectedAccountContext(null, ""));
  }

  /**
   * This user's connected account at `provider` that gives an access token
   * with `scopes`; without one, the browser goes to the provider to connect
   * one (or grant the scopes) and comes back here, or to `returnTo` (the
   * promise then never settles). Outside a browser that throws.
   */
  async getOrLinkConnectedAccount(
    provider: string,
    options: { scopes?: readonly string[]; returnTo?: string } = {},
  ): Promise<ConnectedAccount> {
    const usable = await usableConnectedAccount(await this.listConnectedAccounts(), provider, options.scopes);
    if (usable) return usable;
    await this.linkConnectedAccount(provider, options);
    throw new Error(`Connecting a ${provider} account did not leave this page.`);
  }

  /** Connects an account at `provider` (or grants it more scopes): through the provider's page and back here, or to `returnTo`. */
  async linkConnectedAccount(provider: string, options: { scopes?: readonly string[]; returnTo?: string } = {}): Promise<void> {
    await this.context.linkOAuthAccount(provider, options);
  }

  private connectedAccountContext(provider: string | null, scope: string): ConnectedAccountContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: this.session,
      userIdOrMe: "me",
      // Else getConnectedAccount (and useConnectedAccount) would go on offering the cached token.
      ...(provider === null ? {} : { tokenGone: () => this.context.connectedAccessToken(provider, scope).invalidate() }),
    };
  }
}
