/**
 * StackServerApp: for your own backend, with the secret server key. Adds
 * user management (create, list, read, update, delete, sessions) on top of
 * everything a client app does.
 */
import type {
  OAuthProviderCreateBody,
  SendEmailBody,
  ServerOAuthProviderJson,
  TeamApiKeyJson,
  UserApiKeyJson,
} from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType } from "../interface/api-client.ts";
import { booleanText } from "../interface/query-values.ts";
import type { CacheEntry } from "../cache/index.ts";
import type { ClientUserJson, ServerUserJson } from "../models/json.ts";
import type { ServerTeam, ServerTeamCreateOptions, Team } from "../models/team.ts";
import { CurrentServerUser } from "../models/current-server-user.ts";
import { ServerOAuthProvider, type OAuthProviderUpdateError } from "../models/oauth-provider.ts";
import { ServerUser } from "../models/server-user.ts";
import { Result } from "../result.ts";
import { userUpdateToJson, type ServerUserUpdateOptions } from "../models/user-fields.ts";
import type { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import { StackClientApp, type GetUserOptions, type StackClientAppOptions } from "./client-app.ts";
import { dataVaultStore, type DataVaultStore } from "./data-vault.ts";
import { itemCustomerOf, type GetItemOptions, type ItemCustomerOptions, type ServerItem } from "../models/item.ts";
import type { CancelSubscriptionOptions, CheckoutUrlOptions, GrantProductOptions } from "../models/product.ts";

export interface StackServerAppOptions extends Omit<StackClientAppOptions, "tokenStore"> {
  secretServerKey: string;
  tokenStore?: TokenStoreInit | null;
}

export interface ServerUserCreateOptions extends Omit<ServerUserUpdateOptions, "selectedTeamId" | "isAnonymous"> {
  primaryEmail?: string | null;
  isAnonymous?: boolean;
}

/** The body of `POST /oauth-providers` (oauthProviderCreateBody in @latchkey/shared), in camelCase. */
export type ServerOAuthProviderCreateOptions = CamelCaseKeys<OAuthProviderCreateBody>;

/** The list's order as the API names it. */
export function userOrderQuery(orderBy: ListUsersOptions["orderBy"]): "signed_up_at" | "last_active_at" | undefined {
  if (orderBy === undefined) return undefined;
  return orderBy === "lastActiveAt" ? "last_active_at" : "signed_up_at";
}

export interface ListUsersOptions {
  cursor?: string;
  limit?: number;
  /** Ties are broken by user id, so paging stays exact under either order. */
  orderBy?: "signedUpAt" | "lastActiveAt";
  desc?: boolean;
  /** Matches e-mail, display name and id (part of it, or a whole id), case-insensitively. */
  query?: string;
  includeAnonymous?: boolean;
  /** Anonymous users alone. */
  onlyAnonymous?: boolean;
  teamId?: string;
}

/**
 * `sendEmail`: who gets it (userIds, or allUsers: true), and what (exactly one
 * of html, templateId, draftId). themeId: a theme's id, false for none, null
 * for the project's selected theme; absent, the template's own.
 * notificationCategoryName: who may turn it off, "Transactional" (default,
 * always sent) or "Marketing".
 */
export type SendEmailOptions = CamelCaseKeys<SendEmailBody>;

/** One per recipient; whether each copy went out (or was skipped, and why) is in the sent-mail list. */
export interface SendEmailResult {
  userId: string;
}

export class StackServerApp extends StackClientApp {
  protected override readonly accessType: AccessType = "server";

  constructor(options: StackServerAppOptions) {
    if (!options.secretServerKey && !("superSecretAdminKey" in options) && !("projectOwnerSession" in options)) {
      throw new Error("StackServerApp needs a secretServerKey.");
    }
    super({ ...options, tokenStore: options.tokenStore ?? null });
  }

  protected override extraCredentials(): { secretServerKey?: string; superSecretAdminKey?: string } {
    const options = this.options as StackServerAppOptions;
    return options.secretServerKey ? { secretServerKey: options.secretServerKey } : {};
  }

  /** /users/me answers a server app with the server view of the user. */
  protected override currentUserFromJson(json: ClientUserJson, session: Session): CurrentServerUser {
    return new CurrentServerUser(json as ServerUserJson, this.userContext(session));
  }

  async createUser(options: ServerUserCreateOptions = {}): Promise<ServerUser> {
    const { isAnonymous, ...fields } = options;
    const json = await this.api.call("POST /users", {
      accessType: this.accessType,
      body: { ...userUpdateToJson(fields), ...(isAnonymous !== undefined ? { is_anonymous: isAnonymous } : {}) },
    });
    return this.serverUser(json);
  }

  /**
   * Adds an account at an OAuth provider to a user (e.g. one imported from
   * another system). Refused (as an error Result) when another user already
   * signs in with that provider account.
   */
  async createOAuthProvider(options: ServerOAuthProviderCreateOptions): Promise<Result<ServerOAuthProvider, OAuthProviderUpdateError>> {
    const result = await Result.of<ServerOAuthProviderJson, OAuthProviderUpdateError>(
      [KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn],
      () => this.api.call("POST /oauth-providers", { accessType: this.accessType, body: snakeCaseKeys(options) }),
    );
    if (result.status === "error") return result;
    this.notifyUserChanged();
    const context = {
      api: this.api,
      accessType: this.accessType,
      session: null,
      userIdOrMe: result.data.user_id,
      changed: () => this.notifyUserChanged(),
    };
    return Result.ok(new ServerOAuthProvider(result.data, context));
  }

  /** One page of users (all of them without `limit`); `nextCursor` reads the next page. */
  async listUsers(options: ListUsersOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    const body = await this.api.call("GET /users", {
      accessType: this.accessType,
      query: {
        cursor: options.cursor,
        limit: options.limit,
        order_by: userOrderQuery(options.orderBy),
        desc: booleanText(options.desc),
        query: options.query,
        // The server asks for include_anonymous with only_anonymous; the option alone says both.
        include_anonymous: booleanText(options.onlyAnonymous || options.includeAnonymous),
        only_anonymous: booleanText(options.onlyAnonymous),
        team_id: options.teamId,
      },
    });
    const users = body.items.map((json) => this.serverUser(json));
    return Object.assign(users, { nextCursor: body.pagination.next_cursor });
  }

  /**
   * Mails users through the project's own SMTP server (a project on the shared
   * server gets REQUIRES_CUSTOM_EMAIL_SERVER). Users who turned the category off,
   * or have no e-mail, are skipped; the sent-mail list (listSentEmails) says so.
   */
  async sendEmail(options: SendEmailOptions): Promise<SendEmailResult[]> {
    const body = await this.api.call("POST /emails/send-email", { accessType: this.accessType, body: snakeCaseKeys(options) });
    return body.results.map((r) => ({ userId: r.user_id }));
  }

  /**
   * A data vault store of the project (it must exist in the config, `dataVault.stores.<id>`): values kept by the
   * server, encrypted here with your secret (apps/data-vault.ts). Async for the official SDK's signature; it asks
   * the server nothing until a value is read or written.
   */
  async getDataVaultStore(id: string): Promise<DataVaultStore> {
    return dataVaultStore({ api: this.api, accessType: this.accessType }, id);
  }

  /** A customer's item (a user's, a team's or a custom customer's), with the methods that change its quantity. */
  override getItem(options: GetItemOptions): Promise<ServerItem> {
    return super.getItem(options) as Promise<ServerItem>;
  }

  /** Gives a customer (a user, a team or a custom customer) a product without payment. */
  async grantProduct(options: ItemCustomerOptions & GrantProductOptions): Promise<void> {
    return this.products.of(null, itemCustomerOf(options)).grantProduct(options);
  }

  /**
   * Cancels a customer's subscription to a product (a user's, a team's or a custom customer's, by id): it stays
   * owned until its period ends, and one paid through Stripe is cancelled there too. Without a customer, the
   * signed-in user's, as on the client.
   */
  override async cancelSubscription(
    options: CancelSubscriptionOptions & { userId?: string; teamId?: string; customCustomerId?: string },
  ): Promise<void> {
    if (options.userId === undefined && options.teamId === undefined && options.customCustomerId === undefined) {
      return super.cancelSubscription(options);
    }
    return this.products.of(null, itemCustomerOf(options as ItemCustomerOptions)).cancelSubscription(options);
  }

  /** The URL of the purchase page where a customer buys a configured product, or one described inline (valid 24 hours, once). */
  async createCheckoutUrl(options: ItemCustomerOptions & CheckoutUrlOptions): Promise<string> {
    return this.products.of(null, itemCustomerOf(options)).createCheckoutUrl(options);
  }

  // -------------------------------------------------------------------------
  // Teams

  /** A new team; `creatorUserId` names a member who joins with the team-creator permissions (and has it selected). */
  createTeam(options: ServerTeamCreateOptions): Promise<ServerTeam> {
    return this.teams.createServerTeam(options);
  }

  /** Every team of the project, oldest first. */
  async listTeams(): Promise<ServerTeam[]> {
    return (await this._teamsEntry().get()) as ServerTeam[];
  }

  /** The cache entry behind `listTeams`, for hooks (`useTeams()` of @latchkey/react under a server app). */
  _teamsEntry(): CacheEntry<Team[]> {
    return this.teams.teams(null, null);
  }

  /**
   * Every member's grants in a team, in one request (instead of one listing
   * per member): direct grants, or with `recursive` also the permissions
   * they contain.
   */
  async listTeamMemberPermissions(
    teamId: string,
    options: { recursive?: boolean } = {},
  ): Promise<{ userId: string; permissionId: string }[]> {
    const body = await this.api.call("GET /team-permissions", {
      accessType: this.accessType,
      query: { team_id: teamId, recursive: booleanText(options.recursive ?? false) },
    });
    return body.items.map((grant) => ({ userId: grant.user_id, permissionId: grant.id }));
  }

  /**
   * A team by id, or null when the project has none of that id; or the team
   * a team API key belongs to, null when the key may not be used (unknown,
   * of a user, revoked or expired).
   */
  getTeam(teamId: string): Promise<ServerTeam | null>;
  getTeam(options: { apiKey: string }): Promise<ServerTeam | null>;
  async getTeam(idOrOptions: string | { apiKey: string }): Promise<ServerTeam | null> {
    if (typeof idOrOptions !== "string") {
      const key = await this.checkApiKey("team", idOrOptions.apiKey);
      return key === null ? null : this.getTeam(key.team_id);
    }
    return (await this._teamEntry(idOrOptions).get()) as ServerTeam | null;
  }

  /** The key's object when it may be used, else null (the server's reason is one of the ApiKeyNotValid family). */
  private async checkApiKey<T extends "user" | "team">(type: T, apiKey: string) {
    try {
      const body = { api_key: apiKey };
      const key =
        type === "user"
          ? await this.api.call("POST /user-api-keys/check", { accessType: this.accessType, body })
          : await this.api.call("POST /team-api-keys/check", { accessType: this.accessType, body });
      return key as T extends "user" ? UserApiKeyJson : TeamApiKeyJson;
    } catch (error) {
      if (error instanceof KnownErrors.ApiKeyNotValid) return null;
      throw error;
    }
  }

  /** The cache entry behind `getTeam`, for hooks (`useTeam(id)` under a server app). */
  _teamEntry(teamId: string): CacheEntry<Team | null> {
    return this.teams.teamById(null, teamId);
  }

  /**
   * A user by id (null when there is none), or, given options, the signed-in
   * user of a token store in the server's view (server fields and methods).
   */
  override getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentServerUser>;
  override getUser(options?: GetUserOptions): Promise<CurrentServerUser | null>;
  override getUser(id: string): Promise<ServerUser | null>;
  /** The user a user API key belongs to; null when the key may not be used (unknown, of a team, revoked or expired). */
  override getUser(options: { apiKey: string }): Promise<ServerUser | null>;
  override async getUser(idOrOptions?: string | GetUserOptions | { apiKey: string }): Promise<CurrentServerUser | ServerUser | null> {
    if (typeof idOrOptions === "object" && "apiKey" in idOrOptions) {
      const key = await this.checkApiKey("user", idOrOptions.apiKey);
      return key === null ? null : this.getUser(key.user_id);
    }
    // The signed-in user is built by currentUserFromJson below, so it is a CurrentServerUser.
    if (typeof idOrOptions !== "string") return (await super.getUser(idOrOptions)) as CurrentServerUser | null;
    try {
      // Looked up by id, an anonymous user is found too (the dashboard opens them from its lists).
      const query = { include_anonymous: "true" } as const;
      return this.serverUser(
        await this.api.call("GET /users/:user_id", { accessType: this.accessType, params: { user_id: idOrOptions }, query }),
      );
    } catch (error) {
      if (error instanceof KnownErrors.UserNotFound) return null;
      throw error;
    }
  }
}
