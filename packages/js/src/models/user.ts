/**
 * User objects. A user object is a snapshot of the user when it was read;
 * its methods write through the API, and the app re-reads the signed-in user
 * afterwards (hooks re-render with the new snapshot).
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ClientUserJson, CreatedSessionJson, Json, ServerUserJson, SessionJson } from "./json.ts";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelContext,
  type ContactChannelCreateOptions,
  type ServerContactChannelCreateOptions,
} from "./contact-channel.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-category.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
import { serverTeamFromJson, teamFromJson, type ServerTeam, type Team } from "./team.ts";

export interface User {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  readonly clientMetadata: Json;
  readonly clientReadOnlyMetadata: Json;
  readonly hasPassword: boolean;
  /** Signs in with the primary e-mail (password or one-time code). */
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly passkeyAuthEnabled: boolean;
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  readonly isRestricted: boolean;
  readonly restrictedReason: { type: string } | null;
  readonly restrictedByAdmin: boolean;
  readonly restrictedByAdminReason: string | null;
  readonly oauthProviders: readonly { id: string }[];
  readonly selectedTeam: Team | null;
  readonly selectedTeamId: string | null;
}

export interface UserUpdateOptions {
  displayName?: string | null;
  clientMetadata?: Json;
  selectedTeamId?: string | null;
  profileImageUrl?: string | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  primaryEmail?: string | null;
}

export interface ServerUserUpdateOptions extends UserUpdateOptions {
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  clientReadOnlyMetadata?: Json;
  serverMetadata?: Json;
  password?: string | null;
  restrictedByAdmin?: boolean;
  restrictedByAdminReason?: string | null;
  restrictedByAdminPrivateDetails?: string | null;
}

/** What a user object needs from the app that read it. */
export interface UserContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (current users), else null. */
  session: Session | null;
  /** Tells the app the signed-in user changed, so it reads them again. */
  userChanged(): void;
  signOut(options?: { redirectUrl?: string | URL }): Promise<void>;
  /** Where a mailed verification link leads: the given URL, else the app's e-mail verification page (in browsers). */
  emailVerificationUrl(given: string | undefined): string;
}

function baseFields(json: ClientUserJson): User {
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    emailAuthEnabled: json.auth_with_email,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    isRestricted: json.is_restricted,
    restrictedReason: json.restricted_reason,
    restrictedByAdmin: json.restricted_by_admin,
    restrictedByAdminReason: json.restricted_by_admin_reason,
    oauthProviders: json.oauth_providers.map((p) => ({ id: p.id })),
    selectedTeam: json.selected_team ? teamFromJson(json.selected_team) : null,
    selectedTeamId: json.selected_team_id,
  };
}

export function userUpdateToJson(update: ServerUserUpdateOptions): Record<string, unknown> {
  const map: Record<string, string> = {
    displayName: "display_name",
    clientMetadata: "client_metadata",
    selectedTeamId: "selected_team_id",
    profileImageUrl: "profile_image_url",
    otpAuthEnabled: "otp_auth_enabled",
    passkeyAuthEnabled: "passkey_auth_enabled",
    primaryEmail: "primary_email",
    primaryEmailVerified: "primary_email_verified",
    primaryEmailAuthEnabled: "primary_email_auth_enabled",
    clientReadOnlyMetadata: "client_read_only_metadata",
    serverMetadata: "server_metadata",
    password: "password",
    restrictedByAdmin: "restricted_by_admin",
    restrictedByAdminReason: "restricted_by_admin_reason",
    restrictedByAdminPrivateDetails: "restricted_by_admin_private_details",
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    const wire = map[key];
    if (!wire) throw new Error(`Unknown user field ${JSON.stringify(key)}.`);
    out[wire] = value;
  }
  return out;
}

/** The fields every user object has, read from the wire view. */
abstract class UserFields implements User {
  readonly id!: string;
  readonly displayName!: string | null;
  readonly primaryEmail!: string | null;
  readonly primaryEmailVerified!: boolean;
  readonly profileImageUrl!: string | null;
  readonly signedUpAt!: Date;
  readonly clientMetadata!: Json;
  readonly clientReadOnlyMetadata!: Json;
  readonly hasPassword!: boolean;
  readonly emailAuthEnabled!: boolean;
  readonly otpAuthEnabled!: boolean;
  readonly passkeyAuthEnabled!: boolean;
  readonly isMultiFactorRequired!: boolean;
  readonly isAnonymous!: boolean;
  readonly isRestricted!: boolean;
  readonly restrictedReason!: { type: string } | null;
  readonly restrictedByAdmin!: boolean;
  readonly restrictedByAdminReason!: string | null;
  readonly oauthProviders!: readonly { id: string }[];
  readonly selectedTeam!: Team | null;
  readonly selectedTeamId!: string | null;

  constructor(json: ClientUserJson) {
    Object.assign(this, baseFields(json));
  }
}

/** The signed-in user, as a client app (or a server app reading its own user) sees them. */
export class CurrentUser extends UserFields {
  readonly #json: ClientUserJson;

  constructor(
    json: ClientUserJson,
    protected readonly context: UserContext,
  ) {
    super(json);
    this.#json = json;
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
    await this.send("/users/me", { method: "PATCH", body: userUpdateToJson(update) });
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

  /** Resolves with the refusal (wrong old password, weak new one), or nothing when changed. */
  async updatePassword(options: {
    oldPassword: string;
    newPassword: string;
  }): Promise<InstanceType<typeof KnownErrors.PasswordConfirmationMismatch> | InstanceType<typeof KnownErrors.PasswordRequirementsNotMet> | void> {
    try {
      await this.send("/auth/password/update", {
        method: "POST",
        body: { old_password: options.oldPassword, new_password: options.newPassword },
      });
    } catch (error) {
      if (error instanceof KnownErrors.PasswordConfirmationMismatch || error instanceof KnownErrors.PasswordRequirementsNotMet) {
        return error;
      }
      throw error;
    }
    this.context.userChanged();
  }

  /** For users without a password. Resolves with the refusal (a weak password), or nothing when set. */
  async setPassword(options: { password: string }): Promise<InstanceType<typeof KnownErrors.PasswordRequirementsNotMet> | void> {
    try {
      await this.send("/auth/password/set", { method: "POST", body: { password: options.password } });
    } catch (error) {
      if (error instanceof KnownErrors.PasswordRequirementsNotMet) return error;
      throw error;
    }
    this.context.userChanged();
  }

  listContactChannels(): Promise<ContactChannel[]> {
    return listContactChannels(this.channelContext());
  }

  createContactChannel(options: ContactChannelCreateOptions): Promise<ContactChannel> {
    return createContactChannel(this.channelContext(), options);
  }

  /** The notification categories and whether this user gets mail of each. */
  listNotificationCategories(): Promise<NotificationCategory[]> {
    return listNotificationCategories({ api: this.context.api, accessType: this.context.accessType, session: this.session, userIdOrMe: "me" });
  }

  /** Mails a verification link to the primary e-mail. */
  async sendVerificationEmail(options: { callbackUrl?: string } = {}): Promise<void> {
    if (!this.primaryEmail) throw new Error("This user has no primary e-mail to verify.");
    await this.send("/contact-channels/send-verification-code", {
      method: "POST",
      body: { email: this.primaryEmail, callback_url: this.context.emailVerificationUrl(options.callbackUrl) },
    });
  }

  private channelContext(): ContactChannelContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: this.session,
      userIdOrMe: "me",
      callbackUrl: (given) => this.context.emailVerificationUrl(given),
      userChanged: () => this.context.userChanged(),
    };
  }

  async getActiveSessions(): Promise<ActiveSession[]> {
    const body = await this.send<{ items: SessionJson[] }>("/auth/sessions", { query: { user_id: "me" } });
    return body.items.map(activeSessionFromJson);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.send(`/auth/sessions/${encodeURIComponent(sessionId)}`, { method: "DELETE", query: { user_id: "me" } });
  }

  /** Deletes the account (the project must allow it for clients) and clears the session. */
  async delete(): Promise<void> {
    await this.send("/users/me", { method: "DELETE" });
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

  protected send<T = unknown>(path: string, options: { method?: string; body?: unknown; query?: Record<string, string> } = {}) {
    return this.context.api.send<T>(path, { ...options, accessType: this.context.accessType, session: this.session });
  }
}

/** Any user, as a server (or admin) app sees them. */
export class ServerUser extends UserFields {
  declare readonly selectedTeam: ServerTeam | null;
  readonly lastActiveAt: Date;
  readonly serverMetadata: Json;
  readonly primaryEmailAuthEnabled: boolean;
  readonly restrictedByAdminPrivateDetails: string | null;
  readonly countryCode: string | null;
  readonly riskScores: { readonly signUp: { readonly bot: number; readonly freeTrialAbuse: number } };
  readonly #json: ServerUserJson;

  constructor(
    json: ServerUserJson,
    private readonly context: Pick<UserContext, "api" | "accessType" | "userChanged">,
  ) {
    super(json);
    this.selectedTeam = json.selected_team ? serverTeamFromJson(json.selected_team) : null;
    this.lastActiveAt = new Date(json.last_active_at_millis);
    this.serverMetadata = json.server_metadata;
    this.primaryEmailAuthEnabled = json.primary_email_auth_enabled;
    this.restrictedByAdminPrivateDetails = json.restricted_by_admin_private_details;
    this.countryCode = json.country_code;
    this.riskScores = { signUp: { bot: json.risk_scores.sign_up.bot, freeTrialAbuse: json.risk_scores.sign_up.free_trial_abuse } };
    this.#json = json;
  }

  toServerJson(): ServerUserJson {
    return this.#json;
  }

  async update(update: ServerUserUpdateOptions): Promise<void> {
    await this.send(`/users/${this.id}`, { method: "PATCH", body: userUpdateToJson(update) });
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

  setPrimaryEmail(email: string | null, options: { verified?: boolean } = {}): Promise<void> {
    return this.update({ primaryEmail: email, ...(options.verified !== undefined ? { primaryEmailVerified: options.verified } : {}) });
  }

  async delete(): Promise<void> {
    await this.send(`/users/${this.id}`, { method: "DELETE" });
    this.context.userChanged();
  }

  listContactChannels(): Promise<ContactChannel[]> {
    return listContactChannels(this.channelContext());
  }

  createContactChannel(options: ServerContactChannelCreateOptions): Promise<ContactChannel> {
    return createContactChannel(this.channelContext(), options);
  }

  listNotificationCategories(): Promise<NotificationCategory[]> {
    return listNotificationCategories({ api: this.context.api, accessType: this.context.accessType, session: null, userIdOrMe: this.id });
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

  async getActiveSessions(): Promise<ActiveSession[]> {
    const body = await this.send<{ items: SessionJson[] }>("/auth/sessions", { query: { user_id: this.id } });
    return body.items.map(activeSessionFromJson);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.send(`/auth/sessions/${encodeURIComponent(sessionId)}`, { method: "DELETE", query: { user_id: this.id } });
  }

  /** A new session for this user (e.g. to impersonate them from an admin tool). */
  async createSession(options: { expiresInMillis?: number; isImpersonation?: boolean } = {}): Promise<{
    getTokens(): Promise<{ accessToken: string; refreshToken: string }>;
  }> {
    const body = await this.send<CreatedSessionJson>("/auth/sessions", {
      method: "POST",
      body: {
        user_id: this.id,
        ...(options.expiresInMillis !== undefined ? { expires_in_millis: options.expiresInMillis } : {}),
        ...(options.isImpersonation !== undefined ? { is_impersonation: options.isImpersonation } : {}),
      },
    });
    const tokens = { accessToken: body.access_token, refreshToken: body.refresh_token };
    return { getTokens: async () => tokens };
  }

  private send<T = unknown>(path: string, options: { method?: string; body?: unknown; query?: Record<string, string> } = {}) {
    return this.context.api.send<T>(path, { ...options, accessType: this.context.accessType });
  }
}
