/**
 * The signed-in user: profile, password, passkeys, sessions, contact channels, notification choices, account
 * deletion (their provider accounts: current-user-connections.ts; API keys, items, products: current-user-holdings.ts).
 */
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
import type { OAuthProviderContext } from "./oauth-provider.ts";
import { UserWithHoldings } from "./current-user-holdings.ts";
import { updatePasswordInSession, type PasswordUpdateOptions, type PasswordUpdateRefusal } from "./password-update.ts";
import type { Passkey, PasskeyContext } from "./passkey.ts";
import { registerPasskey, type PasskeyRegistrationError } from "../apps/passkeys.ts";
import type { Result } from "../result.ts";
import type { Team, TeamCreateOptions } from "./team.ts";
import { userUpdateToJson, type UserContext, type UserUpdateOptions } from "./user-fields.ts";
import type { UserTeams } from "./user-teams.ts";

/** The signed-in user, as a client app (or a server app reading its own user) sees them. */
export class CurrentUser extends UserWithHoldings {
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
