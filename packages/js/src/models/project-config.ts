/**
 * A project's configuration through the config API: the rendered document,
 * and the overrides stored at each level (project → branch → environment,
 * later levels winning). Overrides are plain objects whose top-level keys may
 * be dotted paths (`{ "auth.allowSignUp": false }`): writing key K replaces
 * everything stored at or under K.
 */
import type { ConfigSourceJson } from "@latchkey/shared/api/index";
import type { ConfigOverride } from "@latchkey/shared/config/override";
import type { ConfigLevel, RenderedConfig } from "@latchkey/shared/config/schema";
import type { CacheEntry } from "../cache/index.ts";
import type { ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";

export type { ConfigLevel, ConfigOverride };

/** The rendered config: every level's overrides merged over the defaults, secrets masked. */
export type CompleteConfig = RenderedConfig;

/** The levels whose keys `resetConfigOverrideKeys` removes. */
export type ResettableConfigLevel = Exclude<ConfigLevel, "project">;

/** Where the pushed (branch) config came from; a fresh project's is `unlinked`. */
export type PushedConfigSource =
  | { type: "pushed-from-github"; owner: string; repo: string; branch: string; commitHash: string; configFilePath: string }
  | { type: "pushed-from-unknown" }
  | { type: "unlinked" };

export interface PushConfigOptions {
  source: PushedConfigSource;
}

export interface ProjectConfigContext {
  api: ApiClient;
  adminSession: Session | null;
  /** The app's cached read of the rendered config, shared by `getConfig` and the `useConfig` hook. */
  configEntry: () => CacheEntry<CompleteConfig>;
  /** Called after a write, so cached reads of the project and its config are read again. */
  changed?(): void;
}

export function sourceFromJson(json: ConfigSourceJson): PushedConfigSource {
  if (json.type !== "pushed-from-github") return { type: json.type };
  return {
    type: json.type,
    owner: json.owner,
    repo: json.repo,
    branch: json.branch,
    commitHash: json.commit_hash,
    configFilePath: json.config_file_path,
  };
}

export function sourceToJson(source: PushedConfigSource): ConfigSourceJson {
  if (source.type !== "pushed-from-github") return { type: source.type };
  return {
    type: source.type,
    owner: source.owner,
    repo: source.repo,
    branch: source.branch,
    commit_hash: source.commitHash,
    config_file_path: source.configFilePath,
  };
}

/** The config API as an admin project uses it; each write is followed by `changed`. */
export class ProjectConfigCalls {
  constructor(private readonly context: ProjectConfigContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  /** The read behind the config cache entry. */
  static async fetch(api: ApiClient, adminSession: Session | null): Promise<CompleteConfig> {
    const body = await api.call("GET /internal/config", { accessType: "admin", adminSession });
    return JSON.parse(body.config_string) as CompleteConfig;
  }

  getConfig(): Promise<CompleteConfig> {
    return this.context.configEntry().get();
  }

  async getConfigOverride(level: ConfigLevel): Promise<ConfigOverride> {
    const body = await this.context.api.call("GET /internal/config/override/:level", { ...this.asAdmin, params: { level } });
    return JSON.parse(body.config_string) as ConfigOverride;
  }

  async updateConfigOverride(level: ConfigLevel, config: ConfigOverride): Promise<void> {
    await this.context.api.call("PATCH /internal/config/override/:level", {
      ...this.asAdmin,
      params: { level },
      body: { config_override_string: JSON.stringify(config) },
    });
    this.context.changed?.();
  }

  async replaceConfigOverride(level: ConfigLevel, config: ConfigOverride, source?: PushedConfigSource): Promise<void> {
    // The branch level is stored with its source; a replacement without a new one keeps the one it has.
    const branchSource = level === "branch" ? (source ?? (await this.getPushedConfigSource())) : undefined;
    await this.context.api.call("PUT /internal/config/override/:level", {
      ...this.asAdmin,
      params: { level },
      body: { config_string: JSON.stringify(config), ...(branchSource ? { source: sourceToJson(branchSource) } : {}) },
    });
    this.context.changed?.();
  }

  async resetConfigOverrideKeys(level: ResettableConfigLevel, keys: string[]): Promise<void> {
    await this.context.api.call("POST /internal/config/override/:level/reset-keys", { ...this.asAdmin, params: { level }, body: { keys } });
    this.context.changed?.();
  }

  async getPushedConfigSource(): Promise<PushedConfigSource> {
    const body = await this.context.api.call("GET /internal/config/source", this.asAdmin);
    return sourceFromJson(body.source);
  }

  async unlinkPushedConfigSource(): Promise<void> {
    await this.context.api.call("DELETE /internal/config/source", this.asAdmin);
    this.context.changed?.();
  }
}
