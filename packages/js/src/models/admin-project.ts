/** A project as its owners and admin keys see it: every setting, editable. */
import type { AdminProjectConfigJson, ProjectPatchBody } from "@latchkey/shared/api/index";
import type { CacheEntry } from "../cache/index.ts";
import type { ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import { camelKeys, snakeKeys, type DeepCamelCaseKeys } from "./case.ts";
import type { AdminProjectJson } from "./json.ts";
import type { Project } from "./project.ts";
import {
  ProjectConfigCalls,
  type CompleteConfig,
  type ConfigLevel,
  type ConfigOverride,
  type ProjectConfigContext,
  type PushConfigOptions,
  type PushedConfigSource,
  type ResettableConfigLevel,
} from "./project-config.ts";

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

export interface AdminProjectContext extends ProjectConfigContext {
  /** An API client for this project. */
  api: ApiClient;
  /** A project owner's session (admin access token), or null when the client holds the admin key. */
  adminSession: Session | null;
  /** Called after the project changed, so the app's cached reads of it (and of its config) are read again. */
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
  readonly #config: ProjectConfigCalls;

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
    this.#config = new ProjectConfigCalls(context);
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
    return (await this.getProductionModeProblems()).errors;
  }

  /**
   * Both lists at once: `errors` keep production mode off; `warnings` (localhost
   * allowed or trusted) do not, but are unwise for an app real people use.
   */
  async getProductionModeProblems(): Promise<{ errors: ProductionModeError[]; warnings: ProductionModeError[] }> {
    const body = await this.context.api.call("GET /internal/projects/current/production-mode-errors", {
      accessType: "admin",
      adminSession: this.context.adminSession,
    });
    const read = (e: { message: string; relative_fix_url: string }) => ({ message: e.message, relativeFixUrl: e.relative_fix_url });
    return { errors: body.errors.map(read), warnings: body.warnings.map(read) };
  }

  async delete(): Promise<void> {
    await this.context.api.call("DELETE /internal/projects/current", { accessType: "admin", adminSession: this.context.adminSession });
  }

  // -------------------------------------------------------------------------
  // The config (project-config.ts): the rendered document and each level's override

  /** The rendered config: the overrides of every level merged over the defaults; secrets masked. */
  getConfig(): Promise<CompleteConfig> {
    return this.#config.getConfig();
  }

  /** The cache entry behind `getConfig`, for hooks (`useConfig` of @latchkey/react). */
  _configEntry(): CacheEntry<CompleteConfig> {
    return this.context.configEntry();
  }

  /**
   * Writes keys over the environment's override (dotted keys allowed:
   * `{ "auth.allowSignUp": false }`). They win over the pushed (branch)
   * config, even one pushed later: for settings of this deployment, and secrets.
   */
  updateConfig(config: ConfigOverride): Promise<void> {
    return this.#config.updateConfigOverride("environment", config);
  }

  /** Replaces the pushed (branch) config and its source; what `updateConfig` wrote still wins over it. */
  pushConfig(config: ConfigOverride, options: PushConfigOptions): Promise<void> {
    return this.#config.replaceConfigOverride("branch", config, options.source);
  }

  /** Writes keys over the pushed (branch) config, until the next `pushConfig` replaces it. */
  updatePushedConfig(config: ConfigOverride): Promise<void> {
    return this.#config.updateConfigOverride("branch", config);
  }

  getPushedConfigSource(): Promise<PushedConfigSource> {
    return this.#config.getPushedConfigSource();
  }

  /** Sets the source to `unlinked`; the pushed values stay. */
  unlinkPushedConfigSource(): Promise<void> {
    return this.#config.unlinkPushedConfigSource();
  }

  /** Removes keys from a level's override: each key, what is under it, and its part of a stored object. */
  resetConfigOverrideKeys(level: ResettableConfigLevel, keys: string[]): Promise<void> {
    return this.#config.resetConfigOverrideKeys(level, keys);
  }

  /** A level's override as stored (before merging and defaults; secrets masked), `{}` when none. */
  getConfigOverride(level: ConfigLevel): Promise<ConfigOverride> {
    return this.#config.getConfigOverride(level);
  }

  /** Replaces a level's whole override; the branch level keeps its source. */
  replaceConfigOverride(level: ConfigLevel, config: ConfigOverride): Promise<void> {
    return this.#config.replaceConfigOverride(level, config);
  }
}
