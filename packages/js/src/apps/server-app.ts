/**
 * StackServerApp: for your own backend, with the secret server key. Adds
 * user management (create, list, read, update, delete, sessions) on top of
 * everything a client app does.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType } from "../interface/api-client.ts";
import type { ServerUserJson } from "../models/json.ts";
import { ServerUser } from "../models/server-user.ts";
import { userUpdateToJson, type ServerUserUpdateOptions } from "../models/user-fields.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import type { CurrentUser } from "../models/current-user.ts";
import { withoutUndefined } from "../models/case.ts";
import { StackClientApp, type GetUserOptions, type StackClientAppOptions } from "./client-app.ts";

export interface StackServerAppOptions extends Omit<StackClientAppOptions, "tokenStore"> {
  secretServerKey: string;
  tokenStore?: TokenStoreInit | null;
}

export interface ServerUserCreateOptions extends Omit<ServerUserUpdateOptions, "selectedTeamId"> {
  primaryEmail?: string | null;
  isAnonymous?: boolean;
}

export interface ListUsersOptions {
  cursor?: string;
  limit?: number;
  orderBy?: "signedUpAt";
  desc?: boolean;
  /** Matches e-mail and display name, case-insensitively. */
  query?: string;
  includeAnonymous?: boolean;
  teamId?: string;
}

/** `sendEmail`: who gets it, and what (exactly one of html, templateId, draftId). */
export interface SendEmailOptions {
  userIds?: string[];
  allUsers?: true;
  html?: string;
  subject?: string;
  templateId?: string;
  draftId?: string;
  variables?: Record<string, unknown>;
  /** A theme's id, false for none, null for the project's selected theme; absent: the template's own. */
  themeId?: string | false | null;
  /** Who may turn it off: "Transactional" (default, always sent) or "Marketing". */
  notificationCategoryName?: "Transactional" | "Marketing";
}

export interface SendEmailResult {
  userId: string;
  userEmail: string | null;
  status: "queued" | "skipped";
  reason: "no_primary_email" | "notification_category_disabled" | null;
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

  protected serverUser(json: ServerUserJson): ServerUser {
    return new ServerUser(json, { api: this.api, accessType: this.accessType, userChanged: () => this.notifyUserChanged() });
  }

  async createUser(options: ServerUserCreateOptions = {}): Promise<ServerUser> {
    const { isAnonymous, ...fields } = options;
    const json = await this.api.send<ServerUserJson>("/users", {
      method: "POST",
      accessType: this.accessType,
      body: { ...userUpdateToJson(fields), ...(isAnonymous !== undefined ? { is_anonymous: isAnonymous } : {}) },
    });
    return this.serverUser(json);
  }

  /** One page of users (all of them without `limit`); `nextCursor` reads the next page. */
  async listUsers(options: ListUsersOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    const body = await this.api.send<{ items: ServerUserJson[]; pagination?: { next_cursor: string | null } }>("/users", {
      accessType: this.accessType,
      query: {
        cursor: options.cursor,
        limit: options.limit,
        order_by: options.orderBy === undefined ? undefined : "signed_up_at",
        desc: options.desc,
        query: options.query,
        include_anonymous: options.includeAnonymous,
        team_id: options.teamId,
      },
    });
    const users = body.items.map((json) => this.serverUser(json));
    return Object.assign(users, { nextCursor: body.pagination?.next_cursor ?? null });
  }

  /**
   * Mails users through the project's own SMTP server (a project on the shared
   * server gets REQUIRES_CUSTOM_EMAIL_SERVER). Users who turned the category off,
   * or have no e-mail, are skipped and say so in the results.
   */
  async sendEmail(options: SendEmailOptions): Promise<SendEmailResult[]> {
    const wire = withoutUndefined({
      user_ids: options.userIds,
      all_users: options.allUsers,
      html: options.html,
      subject: options.subject,
      template_id: options.templateId,
      draft_id: options.draftId,
      variables: options.variables,
      theme_id: options.themeId,
      notification_category_name: options.notificationCategoryName,
    });
    const body = await this.api.send<{ results: { user_id: string; user_email?: string; status: "queued" | "skipped"; reason?: string }[] }>(
      "/emails/send-email",
      { method: "POST", accessType: this.accessType, body: wire },
    );
    return body.results.map((r) => ({
      userId: r.user_id,
      userEmail: r.user_email ?? null,
      status: r.status,
      reason: (r.reason as SendEmailResult["reason"]) ?? null,
    }));
  }

  /** A user by id (null when there is none), or, given options, the signed-in user of a token store. */
  override getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  override getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  override getUser(id: string): Promise<ServerUser | null>;
  override async getUser(idOrOptions?: string | GetUserOptions): Promise<CurrentUser | ServerUser | null> {
    if (typeof idOrOptions !== "string") return super.getUser(idOrOptions);
    try {
      return this.serverUser(await this.api.send<ServerUserJson>(`/users/${encodeURIComponent(idOrOptions)}`, { accessType: this.accessType }));
    } catch (error) {
      if (error instanceof KnownErrors.UserNotFound) return null;
      throw error;
    }
  }
}
