/** Any user of the project, as a server (or admin) app sees and manages them. */
import type { CreateSessionBody } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { Json, ServerUserJson } from "./json.ts";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelContext,
  type ServerContactChannelCreateOptions,
} from "./contact-channel.ts";
import { connectedAccessToken, noConnectionError, oauthConnection, scopeString, type OAuthConnection } from "./connected-account.ts";
import { listPasskeys, type Passkey } from "./passkey.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-category.ts";
import { getOAuthProvider, listOAuthProviders, type OAuthProviderContext, type ServerOAuthProvider } from "./oauth-provider.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
import type { ServerTeam, ServerTeamCreateOptions } from "./team.ts";
import { userUpdateToJson, type ServerUserUpdateOptions, type UserContext } from "./user-fields.ts";
import type { TeamRef, UserTeams } from "./user-teams.ts";
import { UserWithTeams } from "./user-with-teams.ts";

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
    private readonly context: Pick<UserContext, "api" | "accessType" | "userChanged" | "teams">,
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
