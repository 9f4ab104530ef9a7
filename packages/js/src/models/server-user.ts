/** Any user of the project, as a server (or admin) app sees and manages them. */
import type { CreatedSessionJson, Json, ServerUserJson, SessionJson } from "./json.ts";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelContext,
  type ServerContactChannelCreateOptions,
} from "./contact-channel.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-category.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
import { serverTeamFromJson, type ServerTeam } from "./team.ts";
import { UserFields, userUpdateToJson, type ServerUserUpdateOptions, type UserContext } from "./user-fields.ts";

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
