/** The signed-in user: profile, password, passkeys, sessions, contact channels, notification choices, account deletion. */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { Session } from "../session/session.ts";
import type { ClientUserJson, Json } from "./json.ts";
import type { CacheEntry } from "../cache/entry.ts";
import {
  createContactChannel,
  type ContactChannel,
  type ContactChannelContext,
  type ContactChannelCreateOptions,
} from "./contact-channel.ts";
import type { NotificationCategory } from "./notification-category.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
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
import type { OAuthProvider, OAuthProviderContext } from "./oauth-provider.ts";
import { updatePasswordInSession, type PasswordUpdateOptions, type PasswordUpdateRefusal } from "./password-update.ts";
import type { Passkey, PasskeyContext } from "./passkey.ts";
import { registerPasskey, type PasskeyRegistrationError } from "../apps/passkeys.ts";
import type { Result } from "../result.ts";
import type { Team, TeamCreateOptions } from "./team.ts";
import { userUpdateToJson, type UserContext, type UserUpdateOptions } from "./user-fields.ts";
import type { UserTeams } from "./user-teams.ts";
import { UserWithTeams } from "./user-with-teams.ts";
import { createUserApiKey, type ApiKeyCreationOptions, type UserApiKey, type UserApiKeyFirstView } from "./user-team-api-key.ts";
import type { Item } from "./item.ts";
import type { CustomerPayments, CustomerProductsList, CustomerProductsListOptions, SwitchSubscriptionOptions } from "./product.ts";
import type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./billing.ts";

/** The signed-in user, as a client app (or a server app reading its own user) sees them. */
export class CurrentUser extends UserWithTeams {
  readonly #json: ClientUserJson;
  #teams: UserTeams | null = null;

  constructor(
    json: ClientUserJson,
    protected readonly context: UserContext,
  ) {
    super(json, context.teams, context.session);
    this.#json = json;
  }

  protected get teams(): UserTeams {
    return (this.#teams ??= this.context.teams.forUser(this.session, "me"));
  }

  /** A new team with this user as its creator, selected for them. */
  override async createTeam(options: TeamCreateOptions): Promise<Team> {
    const team = await super.createTeam(options);
    await this.setSelectedTeam(team);
    return team;
  }

  protected get session(): Session {
    if (!this.context.session) throw new Error("This user object has no session.");
    return this.context.session;
  }

  /** This user's session (e.g. a project owner's, for `new StackAdminApp({ projectOwnerSession })`). */
  get _internalSession(): Session {
    return this.session;
  }

  /** The user as the server sent it (snake_case). */
  toClientJson(): ClientUserJson {
    return this.#json;
  }

  readonly currentSession = {
    getTokens: async (): Promise<{ accessToken: string | null; refreshToken: string | null }> => {
      const accessToken = await this.session.getAccessToken();
      return { accessToken, refreshToken: this.session.tokens.refreshToken };
    },
  };

  async update(update: UserUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /users/me", {
      accessType: this.context.accessType,
      session: this.session,
      body: userUpdateToJson(update),
    });
    this.context.userChanged();
  }

  setDisplayName(displayName: string | null): Promise<void> {
    return this.update({ displayName });
  }

  setClientMetadata(clientMetadata: Json): Promise<void> {
    return this.update({ clientMetadata });
  }

  async setSelectedTeam(teamOrId: string | Team | null): Promise<void> {
    return this.update({ selectedTeamId: typeof teamOrId === "object" && teamOrId !== null ? teamOrId.id : teamOrId });
  }

  /** Resolves with the refusal (see PasswordUpdateRefusal), or nothing when changed; the user's other sessions end. */
  async updatePassword(options: PasswordUpdateOptions): Promise<PasswordUpdateRefusal | void> {
    const refusal = await updatePasswordInSession(this.context, this.session, options);
    if (refusal) return refusal;
    this.context.userChanged();
  }

  /** For users without a password. Resolves with the refusal (a weak password), or nothing when set. */
  async setPassword(options: { password: string }): Promise<InstanceType<typeof KnownErrors.PasswordRequirementsNotMet> | void> {
    try {
      await this.context.api.call("POST /auth/password/set", {
        accessType: this.context.accessType,
        session: this.session,
        body: { password: options.password },
      });
    } catch (error) {
      if (error instanceof KnownErrors.PasswordRequirementsNotMet) return error;
      throw error;
    }
    this.context.userChanged();
  }

  /**
   * Registers a passkey for this user on this site (`hostname`, default the page's): the
   * browser asks the user to create one, then the server stores it. Resolves
   * with the refusal (the user cancelled, the browser or the server refused).
   */
  async registerPasskey(options: { hostname?: string } = {}): Promise<Result<undefined, PasskeyRegistrationError>> {
    const result = await registerPasskey({
      api: this.context.api,
      accessType: this.context.accessType,
      session: this.session,
      hostname: options.hostname,
    });
    if (result.status === "ok") this.context.userChanged();
    return result;
  }

  /** This user's passkeys, oldest first. */
  listPasskeys(): Promise<Passkey[]> {
    return this.context.passkeys().get();
  }

  /** The cache entry behind `listPasskeys`, for hooks (`usePasskeys` of @latchkey/react). */
  _passkeysEntry(): CacheEntry<Passkey[]> {
    return this.context.passkeys();
  }

  // -------------------------------------------------------------------------
  // API keys

  /** A new API key of this user; its `value` is the whole key, this once (listed keys show the last four characters). */
  createApiKey(options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView> {
    return createUserApiKey(this.context.apiKeyContext(), options);
  }

  /** This user's API keys, newest first, revoked and expired ones included. */
  listApiKeys(): Promise<UserApiKey[]> {
    return this.context.apiKeys().get();
  }

  /** The cache entry behind `listApiKeys`, for hooks (`useApiKeys` of @latchkey/react). */
  _apiKeysEntry(): CacheEntry<UserApiKey[]> {
    return this.context.apiKeys();
  }

  // -------------------------------------------------------------------------
  // Items

  /** This user's quantity of an item (`payments.items.<id>`, for users). */
  getItem(itemId: string): Promise<Item> {
    return this._itemEntry(itemId).get();
  }

  /** The cache entry behind `getItem`, for hooks (`useItem(user, itemId)` of @latchkey/react). */
  _itemEntry(itemId: string): CacheEntry<Item> {
    return this.context.items.entry(this.session, { type: "user", id: this.id }, itemId);
  }

  // -------------------------------------------------------------------------
  // Products

  /** A page of the products this user owns, oldest first (server-only products are hidden from a client). */
  listProducts(options: CustomerProductsListOptions = {}): Promise<CustomerProductsList> {
    return this._productsEntry(options).get();
  }

  /** The cache entry behind `listProducts`, for hooks (`useProducts(user)` of @latchkey/react). */
  _productsEntry(options: CustomerProductsListOptions = {}): CacheEntry<CustomerProductsList> {
    return this.payments().productsEntry(options);
  }

  /** The URL of the purchase page where this user buys a product (valid 24 hours, once). */
  createCheckoutUrl(options: { productId: string; returnUrl?: string }): Promise<string> {
    return this.payments().createCheckoutUrl(options);
  }

  /** Moves this user's subscription to another product of its product line, charged to their saved card. */
  switchSubscription(options: SwitchSubscriptionOptions): Promise<void> {
    return this.payments().switchSubscription(options);
  }

  // -------------------------------------------------------------------------
  // Billing

  /** Whether Stripe knows this user, and the card this user's subscriptions are charged to. */
  getBilling(): Promise<CustomerBilling> {
    return this._billingEntry().get();
  }

  /** The cache entry behind `getBilling`, for hooks. */
  _billingEntry(): CacheEntry<CustomerBilling> {
    return this.payments().billingEntry();
  }

  /** A page of the invoices of this user's subscriptions, newest first. */
  listInvoices(options: CustomerInvoicesListOptions = {}): Promise<CustomerInvoicesList> {
    return this._invoicesEntry(options).get();
  }

  /** The cache entry behind `listInvoices`, for hooks. */
  _invoicesEntry(options: CustomerInvoicesListOptions = {}): CacheEntry<CustomerInvoicesList> {
    return this.payments().invoicesEntry(options);
  }

  /** A Stripe SetupIntent that saves a card for this user: confirm it with Stripe's card form, on `stripeAccountId`. */
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent> {
    return this.payments().createPaymentMethodSetupIntent();
  }

  /** Makes the card a succeeded SetupIntent saved this user's default; answers the default card after. */
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null> {
    return this.payments().setDefaultPaymentMethodFromSetupIntent(setupIntentId);
  }

  protected payments(): CustomerPayments {
    return this.context.products.of(this.session, { type: "user", id: this.id });
  }

  // -------------------------------------------------------------------------
  // OAuth provider accounts and connected accounts

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

  listContactChannels(): Promise<ContactChannel[]> {
    return this.context.contactChannels().get();
  }

  /** The cache entry behind `listContactChannels`, for hooks (`useContactChannels` of @latchkey/react). */
  _contactChannelsEntry(): CacheEntry<ContactChannel[]> {
    return this.context.contactChannels();
  }

  createContactChannel(options: ContactChannelCreateOptions): Promise<ContactChannel> {
    return createContactChannel(channelContextOf(this.context), options);
  }

  /** The notification categories and whether this user gets mail of each. */
  listNotificationCategories(): Promise<NotificationCategory[]> {
    return this.context.notificationCategories().get();
  }

  /** The cache entry behind `listNotificationCategories`, for hooks (`useNotificationCategories` of @latchkey/react). */
  _notificationCategoriesEntry(): CacheEntry<NotificationCategory[]> {
    return this.context.notificationCategories();
  }

  /** Mails a verification link to the primary e-mail; resolves with EmailAlreadyVerified instead when it is verified. */
  async sendVerificationEmail(
    options: { callbackUrl?: string } = {},
  ): Promise<InstanceType<typeof KnownErrors.EmailAlreadyVerified> | void> {
    if (!this.primaryEmail) throw new Error("This user has no primary e-mail to verify.");
    try {
      await this.context.api.call("POST /contact-channels/send-verification-code", {
        accessType: this.context.accessType,
        session: this.session,
        // A user restricted for their unverified e-mail must be able to ask for the link that lifts it.
        headers: { "x-stack-allow-restricted-user": "true" },
        body: { email: this.primaryEmail, callback_url: this.context.emailVerificationUrl(options.callbackUrl) },
      });
    } catch (error) {
      if (error instanceof KnownErrors.EmailAlreadyVerified) return error;
      throw error;
    }
  }

  async getActiveSessions(): Promise<ActiveSession[]> {
    const body = await this.context.api.call("GET /auth/sessions", {
      accessType: this.context.accessType,
      session: this.session,
      query: { user_id: "me" },
    });
    return body.items.map(activeSessionFromJson);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.context.api.call("DELETE /auth/sessions/:session_id", {
      accessType: this.context.accessType,
      session: this.session,
      params: { session_id: sessionId },
      query: { user_id: "me" },
    });
  }

  /** Deletes the account (the project must allow it for clients) and clears the session. */
  async delete(): Promise<void> {
    await this.context.api.call("DELETE /users/me", { accessType: this.context.accessType, session: this.session });
    this.session.clear();
    this.context.userChanged();
  }

  signOut(options?: { redirectUrl?: string | URL }): Promise<void> {
    return this.context.signOut(options);
  }

  getAccessToken(): Promise<string | null> {
    return this.session.getAccessToken();
  }

  async getRefreshToken(): Promise<string | null> {
    return this.session.tokens.refreshToken;
  }

  async getAuthJson(): Promise<{ accessToken: string | null; refreshToken: string | null }> {
    return this.currentSession.getTokens();
  }
}

/** How the signed-in user's passkeys and OAuth provider accounts reach the API (`me`, with the user's session). */
export function ownRecordsContextOf(context: UserContext): PasskeyContext & OAuthProviderContext {
  if (!context.session) throw new Error("This user object has no session.");
  return {
    api: context.api,
    accessType: context.accessType,
    session: context.session,
    userIdOrMe: "me",
    changed: () => context.userChanged(),
  };
}

/** How the signed-in user's contact channels reach the API (`me`, with the user's session). */
export function channelContextOf(context: UserContext): ContactChannelContext {
  if (!context.session) throw new Error("This user object has no session.");
  return {
    api: context.api,
    accessType: context.accessType,
    session: context.session,
    userIdOrMe: "me",
    callbackUrl: (given) => context.emailVerificationUrl(given),
    userChanged: () => context.userChanged(),
  };
}
