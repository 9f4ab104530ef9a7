/** `ServerUser`'s accounts at OAuth providers (models/server-user.ts): the provider accounts, and the connected accounts an app may use. */
import {
  connectedAccessToken,
  listConnectedAccounts,
  noConnectionError,
  oauthConnection,
  scopeString,
  type ConnectedAccount,
  type OAuthConnection,
} from "./connected-account.ts";
import { getOAuthProvider, listOAuthProviders, type OAuthProviderContext, type ServerOAuthProvider } from "./oauth-provider.ts";
import { ServerUserContactChannels } from "./server-user-contact-channels.ts";

export abstract class ServerUserConnectedAccounts extends ServerUserContactChannels {
  /** This user's accounts at OAuth providers, oldest first. */
  listOAuthProviders(): Promise<ServerOAuthProvider[]> {
    return listOAuthProviders(this.userResourceContext()) as Promise<ServerOAuthProvider[]>;
  }

  /** One of this user's provider accounts by its id, or null. */
  getOAuthProvider(id: string): Promise<ServerOAuthProvider | null> {
    return getOAuthProvider(this.userResourceContext(), id) as Promise<ServerOAuthProvider | null>;
  }

  /** This user's connected account at `provider` whose access token has the given scopes; without one, null or (`or: "throw"`) an error. */
  async getConnectedAccount(
    provider: string,
    options: { or?: "throw" | "return-null"; scopes?: readonly string[] } = {},
  ): Promise<OAuthConnection | null> {
    const context = { api: this.context.api, accessType: this.context.accessType, session: null, userIdOrMe: this.id };
    const scope = scopeString(options.scopes);
    if (await connectedAccessToken(context, provider, scope)) return oauthConnection(context, provider, scope);
    if (options.or === "throw") throw noConnectionError(`User ${this.id}`, provider, scope);
    return null;
  }

  /** This user's connected accounts (provider accounts the app may use), oldest first; several may be at one provider. */
  listConnectedAccounts(): Promise<ConnectedAccount[]> {
    return listConnectedAccounts({ api: this.context.api, accessType: this.context.accessType, session: null, userIdOrMe: this.id });
  }

  /** Connecting an account goes through the user's browser: only a client app (the signed-in user's) can. */
  getOrLinkConnectedAccount(_provider: string, _options?: { scopes?: readonly string[] }): Promise<ConnectedAccount> {
    return Promise.reject(
      new Error("getOrLinkConnectedAccount is not available for server users: connecting an account starts in the user's browser."),
    );
  }

  /** The context of this user's provider accounts, and of their passkeys (models/server-user.ts). */
  protected userResourceContext(): OAuthProviderContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      changed: () => this.context.userChanged(),
    };
  }
}
