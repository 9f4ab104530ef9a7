/** Any user of the project, as a server (or admin) app sees and manages them. */
import {
  createUserApiKey,
  listUserApiKeys,
  type ApiKeyCreationOptions,
  type UserApiKey,
  type UserApiKeyFirstView,
} from "./user-team-api-key.ts";
import type { CreateSessionBody } from "@latchkey/shared/api/index";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { registerPasskey, type PasskeyRegistrationError } from "../apps/passkeys.ts";
import type { Result } from "../result.ts";
import { Session } from "../session/session.ts";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { ClientUserJson, Json, ServerTeamJson, ServerUserJson, TeamJson } from "./json.ts";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelContext,
  type ServerContactChannelCreateOptions,
} from "./contact-channel.ts";
import {
  connectedAccessToken,
  listConnectedAccounts,
  noConnectionError,
  oauthConnection,
  scopeString,
  type ConnectedAccount,
  type OAuthConnection,
} from "./connected-account.ts";
import { listPasskeys, type Passkey } from "./passkey.ts";
import { updatePasswordInSession, type PasswordUpdateOptions, type PasswordUpdateRefusal } from "./password-update.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-category.ts";
import { getOAuthProvider, listOAuthProviders, type OAuthProviderContext, type ServerOAuthProvider } from "./oauth-provider.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
import type { ServerTeam, ServerTeamCreateOptions } from "./team.ts";
import { userUpdateToJson, type ServerUserUpdateOptions, type UserContext } from "./user-fields.ts";
import type { TeamRef, UserTeams } from "./user-teams.ts";
import { UserWithTeams } from "./user-with-teams.ts";

/** The session a server acts in as the user (a passkey registration): long enough for the browser's prompt. */
const BRIEF_SESSION_MILLIS = 2 * 60 * 1000;

/**
 * What a server reads of a user and of a team beyond a client's view. Types
 * only (the SDK carries no schemas at run time): the checks below fail to
 * compile when the wire shapes gain a server-only field not listed here.
 */
const SERVER_ONLY_USER_KEYS = [
  "country_code",
  "last_active_at_millis",
  "primary_email_auth_enabled",
  "restricted_by_admin_private_details",
  "risk_scores",
  "server_metadata",
] as const satisfies readonly Exclude<keyof ServerUserJson, keyof ClientUserJson>[];
const SERVER_ONLY_TEAM_KEYS = ["created_at_millis", "server_metadata"] as const satisfies readonly Exclude<
  keyof ServerTeamJson,
  keyof TeamJson
>[];
type Unlisted<Server, Client, Listed extends readonly PropertyKey[]> = Exclude<Exclude<keyof Server, keyof Client>, Listed[number]>;
const everyServerOnlyKeyListed: [
  Unlisted<ServerUserJson, ClientUserJson, typeof SERVER_ONLY_USER_KEYS>,
  Unlisted<ServerTeamJson, TeamJson, typeof SERVER_ONLY_TEAM_KEYS>,
] extends [never, never]
  ? true
  : never = true;
void everyServerOnlyKeyListed;

function without<T extends object>(json: T, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => !keys.includes(key)));
}

/** The client's view of a user a server read: the fields `GET /users/me` answers a client, no more. */
export function clientViewOf(json: ServerUserJson): ClientUserJson {
  const team = json.selected_team;
  return {
    ...without(json, SERVER_ONLY_USER_KEYS),
    selected_team: team && without(team, SERVER_ONLY_TEAM_KEYS),
  } as ClientUserJson;
}

/** How long a new session lasts, and whether it is an impersonation. */
export type CreateSessionOptions = CamelCaseKeys<Omit<CreateSessionBody, "user_id">>;

/** What a server (or admin) app reads of a user beyond the client's view. */
export interface ServerOnlyUserFields {
  readonly selectedTeam: ServerTeam | null;
  readonly lastActiveAt: Date;
  readonly serverMetadata: Json;
  readonly primaryEmailAuthEnabled: boolean;
  readonly restrictedByAdminPrivateDetails: string | null;
  readonly countryCode: string | null;
  readonly riskScores: { readonly signUp: { readonly bot: number; readonly freeTrialAbuse: number } };
}

/** Shared by `ServerUser` and the signed-in user of a server app (`CurrentServerUser`). */
export function serverOnlyUserFields(json: ServerUserJson): Omit<ServerOnlyUserFields, "selectedTeam"> {
  return {
    lastActiveAt: new Date(json.last_active_at_millis),
    serverMetadata: json.server_metadata,
    primaryEmailAuthEnabled: json.primary_email_auth_enabled,
    restrictedByAdminPrivateDetails: json.restricted_by_admin_private_details,
    countryCode: json.country_code,
    riskScores: { signUp: { bot: json.risk_scores.sign_up.bot, freeTrialAbuse: json.risk_scores.sign_up.free_trial_abuse } },
  };
}

export type CreatedSession = { getTokens(): Promise<{ accessToken: string; refreshToken: string }> };

/** A new session for a user (e.g. to impersonate them from an admin tool). */
export async function createUserSession(
  context: Pick<UserContext, "api" | "accessType">,
  userId: string,
  options: CreateSessionOptions,
): Promise<CreatedSession> {
  const body = await context.api.call("POST /auth/sessions", {
    accessType: context.accessType,
    body: { ...snakeCaseKeys(options), user_id: userId },
  });
  const tokens = { accessToken: body.access_token, refreshToken: body.refresh_token };
  return { getTokens: async () => tokens };
}

// The fields are assigned from `serverOnlyUserFields` in the constructor, so
// the merged declaration is safe; it keeps the field list in one place.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ServerUser extends ServerOnlyUserFields {}

/** Any user, as a server (or admin) app sees them. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class ServerUser extends UserWithTeams {
  declare readonly selectedTeam: ServerTeam | null;
  readonly #json: ServerUserJson;
  #teams: UserTeams | null = null;

  constructor(
    json: ServerUserJson,
    private readonly context: Pick<UserContext, "api" | "accessType" | "userChanged" | "teams" | "emailVerificationUrl">,
  ) {
    super(json, context.teams, null);
    Object.assign(this, serverOnlyUserFields(json));
    this.#json = json;
  }

  protected get teams(): UserTeams {
    return (this.#teams ??= this.context.teams.forUser(null, this.id));
  }

  /** A new team with this user as its creator, selected for them. */
  override async createTeam(options: Omit<ServerTeamCreateOptions, "creatorUserId">): Promise<ServerTeam> {
    const team = (await super.createTeam(options)) as ServerTeam;
    await this.update({ selectedTeamId: team.id });
    return team;
  }

  override listTeams(): Promise<ServerTeam[]> {
    return super.listTeams() as Promise<ServerTeam[]>;
  }

  override getTeam(teamId: string): Promise<ServerTeam | null> {
    return super.getTeam(teamId) as Promise<ServerTeam | null>;
  }

  /** Grants a team permission (the user must be a member), or with only an id a project permission. */
  grantPermission(team: TeamRef, permissionId: string): Promise<void>;
  grantPermission(permissionId: string): Promise<void>;
  grantPermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.grantPermission(scope, permissionId);
  }

  /** Revokes a permission granted directly (one held only through another stays). */
  revokePermission(team: TeamRef, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
  revokePermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.revokePermission(scope, permissionId);
  }

  toServerJson(): ServerUserJson {
    return this.#json;
  }

  /** The user as a client app reads them: without the server-only fields. */
  toClientJson(): ClientUserJson {
    return clientViewOf(this.#json);
  }

  setSelectedTeam(teamOrId: string | TeamRef | null): Promise<void> {
    return this.update({ selectedTeamId: typeof teamOrId === "object" && teamOrId !== null ? teamOrId.id : teamOrId });
  }

  /**
   * Mails a verification link to the primary e-mail (`callbackUrl`: the app's
   * e-mail verification page, absolute on a server); resolves with
   * EmailAlreadyVerified instead when there is nothing to verify.
   */
  async sendVerificationEmail(
    options: { callbackUrl?: string } = {},
  ): Promise<InstanceType<typeof KnownErrors.EmailAlreadyVerified> | void> {
    const primary = (await this.listContactChannels()).find((channel) => channel.type === "email" && channel.isPrimary);
    if (!primary) throw new Error("This user has no primary e-mail to verify.");
    if (primary.isVerified) return new KnownErrors.EmailAlreadyVerified();
    try {
      await primary.sendVerificationEmail({ callbackUrl: this.context.emailVerificationUrl(options.callbackUrl) });
    } catch (error) {
      if (error instanceof KnownErrors.EmailAlreadyVerified) return error;
      throw error;
    }
  }

  /**
   * Registers a passkey of this browser for this user (e.g. in an app that
   * holds the server key in the browser, such as an admin tool), through a
   * session of the user that lives for the ceremony only.
   */
  async registerPasskey(options: { hostname?: string } = {}): Promise<Result<undefined, PasskeyRegistrationError>> {
    const result = await this.inBriefSession((session) =>
      registerPasskey({ api: this.context.api, accessType: this.context.accessType, session, hostname: options.hostname }),
    );
    if (result.status === "ok") this.context.userChanged();
    return result;
  }

  /**
   * Changes the user's password when `oldPassword` is theirs (unlike setPassword, which needs
   * none): a server checking what its user typed. As a server write of the password, every
   * session of the user ends. Resolves with the refusal, or nothing when changed.
   */
  async updatePassword(options: PasswordUpdateOptions): Promise<PasswordUpdateRefusal | void> {
    const refusal = await this.inBriefSession((session) => updatePasswordInSession(this.context, session, options));
    if (refusal) return refusal;
    this.context.userChanged();
  }

  /** Runs `act` as the user through a session of theirs that ends as soon as it is done. */
  private async inBriefSession<T>(act: (session: Session) => Promise<T>): Promise<T> {
    const tokens = await (await this.createSession({ expiresInMillis: BRIEF_SESSION_MILLIS })).getTokens();
    try {
      return await act(new Session(async () => null, tokens));
    } finally {
      // Ended at once; should that fail, it ends by itself within minutes.
      await this.context.api
        .call("DELETE /auth/sessions/current", {
          accessType: this.context.accessType,
          headers: { "x-stack-refresh-token": tokens.refreshToken },
        })
        .catch(() => {});
    }
  }

  async update(update: ServerUserUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /users/:user_id", {
      accessType: this.context.accessType,
      params: { user_id: this.id },
      body: userUpdateToJson(update),
    });
    this.context.userChanged();
  }

  setDisplayName(displayName: string | null): Promise<void> {
    return this.update({ displayName });
  }

  setServerMetadata(serverMetadata: Json): Promise<void> {
    return this.update({ serverMetadata });
  }

  setClientReadOnlyMetadata(clientReadOnlyMetadata: Json): Promise<void> {
    return this.update({ clientReadOnlyMetadata });
  }

  setClientMetadata(clientMetadata: Json): Promise<void> {
    return this.update({ clientMetadata });
  }

  /**
   * Sets the user's password as the server may (no old password, no client minimum); every
   * session of the user ends, so whoever held one signs in again with the new password.
   */
  setPassword(options: { password: string }): Promise<void> {
    return this.update({ password: options.password });
  }

  setPrimaryEmail(email: string | null, options: { verified?: boolean } = {}): Promise<void> {
    return this.update({ primaryEmail: email, ...(options.verified !== undefined ? { primaryEmailVerified: options.verified } : {}) });
  }

  async delete(): Promise<void> {
    await this.context.api.call("DELETE /users/:user_id", { accessType: this.context.accessType, params: { user_id: this.id } });
    this.context.userChanged();
  }

  /** A new API key of this user; its `value` is the whole key, this once. */
  createApiKey(options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView> {
    return createUserApiKey(this.apiKeyContext(), options);
  }

  /** This user's API keys, newest first, revoked and expired ones included. */
  listApiKeys(): Promise<UserApiKey[]> {
    return listUserApiKeys(this.apiKeyContext());
  }

  private apiKeyContext() {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      owner: { type: "user" as const, userIdOrMe: this.id },
      // Nothing of a user read by id is cached by the app.
      changed: () => {},
    };
  }

  listContactChannels(): Promise<ContactChannel[]> {
    return listContactChannels(this.channelContext());
  }

  createContactChannel(options: ServerContactChannelCreateOptions): Promise<ContactChannel> {
    return createContactChannel(this.channelContext(), options);
  }

  listNotificationCategories(): Promise<NotificationCategory[]> {
    return listNotificationCategories({
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      changed: () => this.context.userChanged(),
    });
  }

  private channelContext(): ContactChannelContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      callbackUrl: (given) => {
        if (given === undefined) throw new Error("Pass callbackUrl: the absolute URL of your app's e-mail verification page.");
        return given;
      },
      userChanged: () => this.context.userChanged(),
    };
  }

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

  /** This user's passkeys, oldest first (each can be removed with `delete()`). */
  listPasskeys(): Promise<Passkey[]> {
    return listPasskeys(this.userResourceContext());
  }

  private userResourceContext(): OAuthProviderContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      changed: () => this.context.userChanged(),
    };
  }

  async getActiveSessions(): Promise<ActiveSession[]> {
    const body = await this.context.api.call("GET /auth/sessions", { accessType: this.context.accessType, query: { user_id: this.id } });
    return body.items.map(activeSessionFromJson);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.context.api.call("DELETE /auth/sessions/:session_id", {
      accessType: this.context.accessType,
      params: { session_id: sessionId },
      query: { user_id: this.id },
    });
  }

  /** A new session for this user (e.g. to impersonate them from an admin tool). */
  createSession(options: CreateSessionOptions = {}): Promise<CreatedSession> {
    return createUserSession(this.context, this.id, options);
  }
}
