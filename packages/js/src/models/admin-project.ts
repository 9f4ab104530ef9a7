/** A project as its owners and admin keys see it: every setting, editable. */
import type { ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import { camelKeys, snakeKeys } from "./case.ts";
import type { AdminProjectJson } from "./json.ts";
import type { Project } from "./project.ts";

export interface AdminProjectConfig {
  readonly allowLocalhost: boolean;
  readonly signUpEnabled: boolean;
  readonly credentialEnabled: boolean;
  readonly magicLinkEnabled: boolean;
  readonly passkeyEnabled: boolean;
  readonly clientTeamCreationEnabled: boolean;
  readonly clientUserDeletionEnabled: boolean;
  readonly createTeamOnSignUp: boolean;
  readonly allowUserApiKeys: boolean;
  readonly allowTeamApiKeys: boolean;
  readonly requireEmailVerification?: boolean;
  readonly domains: readonly { domain: string; handlerPath: string }[];
  readonly oauthAccountMergeStrategy: "link_method" | "raise_error" | "allow_duplicates";
  /** The providers configured for OAuth sign-in (credentials included). */
  readonly oauthProviders: readonly { id: string; type: "shared" | "standard"; [key: string]: unknown }[];
  readonly enabledOauthProviders: readonly { id: string }[];
  readonly [key: string]: unknown;
}

export interface AdminProjectUpdateOptions {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  logoUrl?: string | null;
  logoFullUrl?: string | null;
  logoDarkModeUrl?: string | null;
  logoFullDarkModeUrl?: string | null;
  config?: Partial<Record<keyof AdminProjectConfig & string, unknown>>;
}

export interface AdminProjectContext {
  /** An API client for this project. */
  api: ApiClient;
  /** A project owner's session (admin access token), or null when the client holds the admin key. */
  adminSession: Session | null;
}

export class AdminProject implements Project {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly isProductionMode: boolean;
  readonly ownerTeamId: string | null;
  readonly logoUrl: string | null;
  readonly logoFullUrl: string | null;
  readonly logoDarkModeUrl: string | null;
  readonly logoFullDarkModeUrl: string | null;
  readonly config: AdminProjectConfig;

  constructor(
    json: AdminProjectJson,
    protected readonly context: AdminProjectContext,
  ) {
    this.id = json.id;
    this.displayName = json.display_name;
    this.description = json.description;
    this.createdAt = new Date(json.created_at_millis);
    this.isProductionMode = json.is_production_mode;
    this.ownerTeamId = json.owner_team_id;
    this.logoUrl = json.logo_url;
    this.logoFullUrl = json.logo_full_url;
    this.logoDarkModeUrl = json.logo_dark_mode_url;
    this.logoFullDarkModeUrl = json.logo_full_dark_mode_url;
    this.config = camelKeys<AdminProjectConfig>(json.config);
  }

  /** Writes the changes and returns the project as it is now. */
  async update(update: AdminProjectUpdateOptions): Promise<AdminProject> {
    const json = await this.context.api.send<AdminProjectJson>("/internal/projects/current", {
      method: "PATCH",
      accessType: "admin",
      adminSession: this.context.adminSession,
      body: snakeKeys(update),
    });
    return new AdminProject(json, this.context);
  }

  async delete(): Promise<void> {
    await this.context.api.send("/internal/projects/current", {
      method: "DELETE",
      accessType: "admin",
      adminSession: this.context.adminSession,
    });
  }
}
