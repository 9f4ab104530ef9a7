/**
 * StackClientApp: what a browser or any end-user client uses — sign-up and
 * sign-in, the signed-in user, sign-out, the project's public settings, and
 * the code flows. This file holds its sessions, cached reads and the reads of
 * the user and the project; the sign-in flows are in client-app-sign-in.ts,
 * its tokens and redirects in client-app-base.ts.
 */
import { INTERNAL_PROJECT_ID } from "@latchkey/shared/constants";
import { USER_NOT_SIGNED_IN_THROW_MESSAGE } from "../errors.ts";
import { CachedQuery, CacheStore, type CacheEntry } from "../cache/index.ts";
import { ApiClient, type AccessType } from "../interface/api-client.ts";
import { listContactChannels } from "../models/contact-channel.ts";
import { listNotificationCategories } from "../models/notification-category.ts";
import type { ClientUserJson, ServerUserJson } from "../models/json.ts";
import { ServerUser } from "../models/server-user.ts";
import { projectFromJson, type Project } from "../models/project.ts";
import { CurrentInternalUser } from "../models/internal-user.ts";
import { channelContextOf, CurrentUser, ownRecordsContextOf } from "../models/current-user.ts";
import { connectedAccessToken } from "../models/connected-account.ts";
import { listOAuthProviders } from "../models/oauth-provider.ts";
import { listPasskeys } from "../models/passkey.ts";
import { listUserApiKeys, type ApiKeyContext } from "../models/user-team-api-key.ts";
import type { UserContext } from "../models/user-fields.ts";
import { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import { resolveHandlerUrls, type HandlerUrls } from "../urls/handler-urls.ts";
import { AppRedirects, type RedirectToOptions } from "./app-redirects.ts";
import { userKind, type GetUserOptions, type StackClientAppOptions, type UserKind } from "./client-app-base.ts";
import { ClientAppSignIn } from "./client-app-sign-in.ts";
import { linkOAuthAccount, type OAuthScopesOnSignIn } from "./oauth-sign-in.ts";
import { AppSessions } from "./app-sessions.ts";
import { readCurrentUserJson } from "./current-user-read.ts";
import { AppTeams } from "./teams.ts";
import { AppItems } from "./items.ts";
import { AppProducts } from "./products.ts";
import {
  completeTestModePurchase,
  readPurchaseCardSettings,
  readPurchaseCode,
  startCardPurchase,
  type PurchaseCardSettings,
  type PurchaseCodeInfo,
  type PurchaseSessionOptions,
} from "./purchase-codes.ts";
import { itemCustomerOf, type GetItemOptions, type Item } from "../models/item.ts";
import type { CancelSubscriptionOptions, CustomerProductsList, CustomerProductsRequestOptions } from "../models/product.ts";

export type { RedirectToOptions };
export type { GetUserOptions, StackClientAppOptions };

const DEFAULT_BASE_URL = "http://localhost:8102";

export class StackClientApp extends ClientAppSignIn {
  readonly projectId: string;
  readonly urls: Readonly<HandlerUrls>;
  protected readonly api: ApiClient;
  protected readonly accessType: AccessType = "client";
  readonly #sessions: AppSessions;
  protected readonly redirects: AppRedirects;
  readonly #userListeners = new Set<() => void>();
  /** Sessions an anonymous read of the user is signing up right now (that read's answer is already the new user). */
  readonly #signingUpAnonymously = new WeakSet<Session>();
  /**
   * Every cached read of this app (see cache/query.ts for adding one): the
   * hooks of @latchkey/react and the get and list methods share its entries.
   */
  protected readonly cache = new CacheStore();
  readonly #user = new CachedQuery(this.cache, "user", (session: Session, kind: UserKind) => this.fetchCurrentUser(session, kind));
  readonly #project = new CachedQuery(this.cache, "project", () => this.fetchProject());
  readonly #contactChannels = new CachedQuery(this.cache, "contactChannels", (session: Session) =>
    listContactChannels(channelContextOf(this.userContext(session))),
  );
  readonly #passkeys = new CachedQuery(this.cache, "passkeys", (session: Session) =>
    listPasskeys(ownRecordsContextOf(this.userContext(session))),
  );
  readonly #userApiKeys = new CachedQuery(this.cache, "userApiKeys", (session: Session) => listUserApiKeys(this.ownApiKeyContext(session)));
  readonly #oauthProviders = new CachedQuery(this.cache, "oauthProviders", (session: Session) =>
    listOAuthProviders(ownRecordsContextOf(this.userContext(session))),
  );
  readonly #connectedAccessTokens = new CachedQuery(
    this.cache,
    "connectedAccessToken",
    (session: Session, provider: string, scope: string) =>
      connectedAccessToken({ api: this.api, accessType: this.accessType, session, userIdOrMe: "me" }, provider, scope),
  );
  readonly #notificationCategories = new CachedQuery(this.cache, "notificationCategories", (session: Session) =>
    listNotificationCategories({
      api: this.api,
      accessType: this.accessType,
      session,
      userIdOrMe: "me",
      changed: () => this.#notificationCategories.invalidate(session),
    }),
  );

  /** The cached team, member, invitation and permission reads (apps/teams.ts). */
  protected readonly teams: AppTeams;
  /** The cached item reads of users, teams and custom customers (apps/items.ts). */
  protected readonly items: AppItems;
  /** The cached product reads and product changes of users, teams and custom customers (apps/products.ts). */
  protected readonly products: AppProducts;
  protected readonly oauthScopesOnSignIn: OAuthScopesOnSignIn;

  constructor(protected readonly options: StackClientAppOptions) {
    super();
    if (!options.projectId) throw new Error("StackClientApp needs a projectId.");
    this.projectId = options.projectId;
    this.api = new ApiClient({
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      projectId: options.projectId,
      publishableClientKey: options.publishableClientKey,
      extraRequestHeaders: options.extraRequestHeaders,
      fetch: options.fetch,
      ...this.extraCredentials(),
    });
    this.urls = Object.freeze(resolveHandlerUrls(options.urls));
    this.oauthScopesOnSignIn = options.oauthScopesOnSignIn ?? {};
    this.#sessions = new AppSessions(
      options.projectId,
      options.tokenStore,
      (refreshToken) => this.api.refreshAccessToken(refreshToken, this.accessType),
      (session) => this.sessionSignedInUserChanged(session),
    );
    this.items = new AppItems({ api: this.api, accessType: () => this.accessType, cache: this.cache });
    this.products = new AppProducts({ api: this.api, accessType: () => this.accessType, cache: this.cache });
    this.teams = new AppTeams({
      api: this.api,
      accessType: () => this.accessType,
      cache: this.cache,
      items: this.items,
      products: this.products,
      invitationCallbackUrl: (given) => this.codeCallbackUrl(given, "teamInvitation"),
      serverUser: (json) => this.serverUser(json),
      usersChanged: () => {
        this.#user.invalidateAll();
        for (const listener of this.#userListeners) listener();
      },
    });
    this.redirects = new AppRedirects(this.urls, options.redirectMethod ?? (typeof window === "undefined" ? "none" : "window"));
  }

  /** Server and admin apps add their keys here. */
  protected extraCredentials(): { secretServerKey?: string; superSecretAdminKey?: string } {
    return {};
  }

  // -------------------------------------------------------------------------
  // Sessions and tokens

  /** The session of the given tokens, or of the app's own token store. */
  protected override sessionFor(tokenStore?: TokenStoreInit | null): Session {
    return this.#sessions.sessionFor(tokenStore);
  }

  /** Called whenever the signed-in user may have changed (sign-in, sign-out, updates); returns the unsubscribe function. */
  onUserChange(listener: () => void): () => void {
    this.#userListeners.add(listener);
    return () => this.#userListeners.delete(listener);
  }

  /** Something about a user changed where it may be any session's user: every session's cached reads are read again. */
  protected override notifyUserChanged(): void {
    this.cache.invalidateWhere((entry) => entry.args.some((arg) => arg instanceof Session));
    for (const listener of this.#userListeners) listener();
  }

  /**
   * Who is signed in on `session` changed: its cached reads were another user's (or nobody's), so they are
   * not shown again, only read anew, and an app acting on the user meanwhile waits rather than sees the old one.
   * On sign-out that wait is a moment: a signed-out session's user is known without a request.
   */
  private sessionSignedInUserChanged(session: Session): void {
    this.sessionReadsStale(session, (match) => this.cache.resetWhere(match));
  }

  /** What `session` knows about its user changed (an update, a new passkey): its cached reads are read again, shown until then. */
  private sessionUserChanged(session: Session): void {
    this.sessionReadsStale(session, (match) => this.cache.invalidateWhere(match));
  }

  private sessionReadsStale(session: Session, stale: (match: (entry: CacheEntry<unknown>) => boolean) => void): void {
    const signingUp = this.#signingUpAnonymously.has(session) ? this.#user.entry(session, "anonymous") : null;
    stale((entry) => entry.args.includes(session) && entry !== signingUp);
    for (const listener of this.#userListeners) listener();
  }

  // -------------------------------------------------------------------------
  // The signed-in user and the project

  getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    const user = await this.#user.get(this.sessionFor(options.tokenStore), userKind(options));
    if (user) return user;
    switch (options.or) {
      case "redirect":
        await this.redirectToSignIn();
        throw new Error("Redirected to the sign-in page: nobody is signed in.");
      case "throw":
        throw new Error(USER_NOT_SIGNED_IN_THROW_MESSAGE);
      default:
        return null;
    }
  }

  /**
   * The cache entry of the app's signed-in user, for hooks (`useUser` of
   * @latchkey/react): shared with `getUser` calls of the same options.
   */
  _userEntry(options: { or?: GetUserOptions["or"]; includeRestricted?: boolean } = {}): CacheEntry<CurrentUser | null> {
    return this.#user.entry(this.sessionFor(), userKind(options));
  }

  /** The cache entry of the project's public settings, for hooks (`useProject`): shared with `getProject`. */
  _projectEntry(): CacheEntry<Project> {
    return this.#project.entry();
  }

  private async fetchCurrentUser(session: Session, kind: UserKind): Promise<CurrentUser | null> {
    const anonymous = kind === "anonymous";
    const user = await this.readCurrentUser(session, anonymous, kind !== "default");
    if (user || !anonymous) return user;
    const tokens = await this.api.call("POST /auth/anonymous/sign-up", { accessType: this.accessType });
    this.#signingUpAnonymously.add(session);
    try {
      session.set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    } finally {
      this.#signingUpAnonymously.delete(session);
    }
    const created = await this.readCurrentUser(session, true, true);
    if (!created) throw new Error("The anonymous user just created could not be read back.");
    return created;
  }

  private async readCurrentUser(session: Session, allowAnonymous: boolean, allowRestricted: boolean): Promise<CurrentUser | null> {
    const json = await readCurrentUserJson(this.api, this.accessType, session, { anonymous: allowAnonymous, restricted: allowRestricted });
    return json && this.currentUserFromJson(json, session);
  }

  /** The signed-in user of `session` from /users/me, read with this app's access (server apps get the server view). */
  protected currentUserFromJson(json: ClientUserJson, session: Session): CurrentUser {
    const context = this.userContext(session);
    return this.projectId === INTERNAL_PROJECT_ID ? new CurrentInternalUser(json, context, this.options) : new CurrentUser(json, context);
  }

  protected userContext(session: Session): UserContext {
    return {
      api: this.api,
      accessType: this.accessType,
      session,
      userChanged: () => this.sessionUserChanged(session),
      signOut: (options) => this.signOutSession(session, options?.redirectUrl),
      emailVerificationUrl: (given) => this.codeFlowContext().callbackUrl(given, "emailVerification"),
      contactChannels: () => this.#contactChannels.entry(session),
      notificationCategories: () => this.#notificationCategories.entry(session),
      passkeys: () => this.#passkeys.entry(session),
      oauthProviders: () => this.#oauthProviders.entry(session),
      apiKeys: () => this.#userApiKeys.entry(session),
      apiKeyContext: () => this.ownApiKeyContext(session),
      connectedAccessToken: (provider, scope) => this.#connectedAccessTokens.entry(session, provider, scope),
      linkOAuthAccount: (provider, options) => linkOAuthAccount(this.oauthContext(session), provider, options),
      teams: this.teams,
      items: this.items,
      products: this.products,
    };
  }

  /** How the signed-in user's API keys reach the API (`me`, with the user's session). */
  private ownApiKeyContext(session: Session): ApiKeyContext & { owner: { type: "user" } } {
    return {
      api: this.api,
      accessType: this.accessType,
      session,
      owner: { type: "user", userIdOrMe: "me" },
      changed: () => this.#userApiKeys.invalidate(session),
    };
  }

  /** A user read with server access (e.g. a team's member, on a server). */
  protected serverUser(json: ServerUserJson): ServerUser {
    return new ServerUser(json, {
      api: this.api,
      accessType: this.accessType,
      userChanged: () => this.notifyUserChanged(),
      emailVerificationUrl: (given) => this.codeCallbackUrl(given, "emailVerification"),
      teams: this.teams,
      items: this.items,
      products: this.products,
    });
  }

  // -------------------------------------------------------------------------
  // Items

  /**
   * A customer's quantity of an item: a user's, a team's or a custom
   * customer's. A client reads its own user's items, and a team's where it
   * holds `team_admin`; the server refuses others (403, or the team's error).
   */
  getItem(options: GetItemOptions): Promise<Item> {
    return this._itemEntry(options).get();
  }

  /** The cache entry behind `getItem`, for hooks (`useItem` of @latchkey/react). */
  _itemEntry(options: GetItemOptions): CacheEntry<Item> {
    // Server access reads without a user's session (a server app may have no token store).
    const session = this.accessType === "client" ? this.sessionFor() : null;
    return this.items.entry(session, itemCustomerOf(options), options.itemId);
  }

  // -------------------------------------------------------------------------
  // Products

  /**
   * A page of the products a customer owns (a user's, a team's or a custom
   * customer's), oldest first. A client reads its own user's, and a team's
   * where it holds `team_admin`; server-only products are hidden from it.
   */
  listProducts(options: CustomerProductsRequestOptions): Promise<CustomerProductsList> {
    return this._productsEntry(options).get();
  }

  /** The cache entry behind `listProducts`, for hooks (`useProducts` of @latchkey/react). */
  _productsEntry(options: CustomerProductsRequestOptions): CacheEntry<CustomerProductsList> {
    const session = this.accessType === "client" ? this.sessionFor() : null;
    return this.products.of(session, itemCustomerOf(options)).productsEntry(options);
  }

  /**
   * Cancels the signed-in user's subscription to a product (or, with
   * `teamId`, the team's): it stays owned until its period ends.
   */
  async cancelSubscription(options: CancelSubscriptionOptions & { teamId?: string }): Promise<void> {
    const session = this.sessionFor();
    const customer =
      options.teamId === undefined
        ? { type: "user" as const, id: (await this.getUser({ or: "throw" })).id }
        : { type: "team" as const, id: options.teamId };
    await this.products.of(session, customer).cancelSubscription(options);
  }

  /** What a purchase code (a checkout URL's last segment) sells, for the purchase page; needs no user. */
  _readPurchaseCode(fullCode: string, returnUrl?: string): Promise<PurchaseCodeInfo> {
    return readPurchaseCode(this.api, fullCode, returnUrl);
  }

  /** The purchase page's Buy in test mode: the code's customer gets the product without paying. */
  _completeTestModePurchase(options: PurchaseSessionOptions): Promise<void> {
    return completeTestModePurchase(this.api, options);
  }

  /** How the purchase page takes a card for a code (used or not), and whether `returnUrl` is trusted. */
  _readPurchaseCardSettings(fullCode: string, returnUrl?: string): Promise<PurchaseCardSettings> {
    return readPurchaseCardSettings(this.api, fullCode, returnUrl);
  }

  /** The purchase page's Pay: the client secret Stripe.js confirms; the code is used up. */
  _startCardPurchase(options: PurchaseSessionOptions): Promise<string> {
    return startCardPurchase(this.api, options);
  }

  async getProject(): Promise<Project> {
    return this.#project.get();
  }

  /** The project's settings changed through this app: its cached read is read again. */
  protected projectChanged(): void {
    this.#project.invalidate();
  }

  /** The read behind `getProject` and `useProject`. */
  protected async fetchProject(): Promise<Project> {
    return projectFromJson(await this.api.call("GET /projects/current", { accessType: this.accessType }));
  }
}
