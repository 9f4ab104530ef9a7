/** A project as its owners and admin keys see it: every setting, editable. */
import type { AdminProjectConfigJson, ProjectPatchBody } from "@latchkey/shared/api/index";
import type { ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import { camelKeys, snakeKeys, type DeepCamelCaseKeys } from "./case.ts";
import type { AdminProjectJson } from "./json.ts";
import type { Project } from "./project.ts";

/** Every setting of the project, as the admin view gives them (the wire's config, camelCase). */
export type AdminProjectConfig = Readonly<DeepCamelCaseKeys<AdminProjectConfigJson>>;

/** The fields of a project an admin may change (the PATCH body, camelCase); `config` may hold any subset of the settings. */
export type AdminProjectUpdateOptions = DeepCamelCaseKeys<ProjectPatchBody>;

/** One thing that keeps the project out of production mode: the message, and where in the dashboard it is fixed. */
export interface ProductionModeError {
  message: string;
  /** The dashboard page, with the anchor of the very setting to change (e.g. `#allow-localhost`). */
  relativeFixUrl: string;
}

export interface AdminProjectContext {
  /** An API client for this project. */
  api: ApiClient;
  /** A project owner's session (admin access token), or null when the client holds the admin key. */
  adminSession: Session | null;
  /** Called after the project changed, so the app's cached reads of it are read again. */
  changed?(): void;
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
    const json = await this.context.api.call("PATCH /internal/projects/current", {
      accessType: "admin",
      adminSession: this.context.adminSession,
      body: snakeKeys(update),
    });
    this.context.changed?.();
    return new AdminProject(json, this.context);
  }

  /**
   * What must change before production mode can be switched on, each with a
   * link to the setting in the dashboard that fixes it; empty when nothing stands in the way. Read
   * from the server's stored settings, not from this (possibly older) copy.
   */
  async getProductionModeErrors(): Promise<ProductionModeError[]> {
    const body = await this.context.api.call("GET /internal/projects/current/production-mode-errors", {
      accessType: "admin",
      adminSession: this.context.adminSession,
    });
    return body.errors.map((e) => ({ message: e.message, relativeFixUrl: e.relative_fix_url }));
  }

  async delete(): Promise<void> {
    await this.context.api.call("DELETE /internal/projects/current", { accessType: "admin", adminSession: this.context.adminSession });
  }
}
