/**
 * The permission definitions of a project (admin access): team-scoped ones
 * (listed with the six system permissions) and project-scoped ones. Lists
 * are cached; a write reads them again, with every cached permission read
 * (what a definition contains decides what a grant gives).
 */
import { CachedQuery, type CacheEntry, type CacheStore } from "../cache/index.ts";
import type { ApiClient } from "../interface/api-client.ts";
import {
  permissionDefinitionFromJson,
  permissionDefinitionToJson,
  type AdminPermissionDefinition,
  type PermissionDefinitionCreateOptions,
  type PermissionDefinitionUpdateOptions,
} from "../models/permission.ts";
import type { Session } from "../session/session.ts";

export interface PermissionDefinitionsContext {
  api: ApiClient;
  cache: CacheStore;
  /** The project owner's session, when the app acts as one rather than with the admin key. */
  adminSession: Session | null;
  /** Definitions changed: cached permission reads are read again. */
  permissionsChanged(): void;
}

type Scope = "team" | "project";

export class PermissionDefinitions {
  readonly #lists: CachedQuery<[Scope], AdminPermissionDefinition[]>;

  constructor(private readonly ctx: PermissionDefinitionsContext) {
    this.#lists = new CachedQuery(ctx.cache, "permissionDefinitions", async (scope: Scope) => {
      const body =
        scope === "team"
          ? await ctx.api.call("GET /team-permission-definitions", this.asAdmin)
          : await ctx.api.call("GET /project-permission-definitions", this.asAdmin);
      return body.items.map(permissionDefinitionFromJson);
    });
  }

  list(scope: Scope): Promise<AdminPermissionDefinition[]> {
    return this.entry(scope).get();
  }

  entry(scope: Scope): CacheEntry<AdminPermissionDefinition[]> {
    return this.#lists.entry(scope);
  }

  async create(scope: Scope, options: PermissionDefinitionCreateOptions): Promise<AdminPermissionDefinition> {
    const body = { ...permissionDefinitionToJson(options), id: options.id };
    const json =
      scope === "team"
        ? await this.ctx.api.call("POST /team-permission-definitions", { ...this.asAdmin, body })
        : await this.ctx.api.call("POST /project-permission-definitions", { ...this.asAdmin, body });
    this.changed();
    return permissionDefinitionFromJson(json);
  }

  async update(scope: Scope, permissionId: string, options: PermissionDefinitionUpdateOptions): Promise<void> {
    const request = { ...this.asAdmin, params: { permission_id: permissionId }, body: permissionDefinitionToJson(options) };
    if (scope === "team") await this.ctx.api.call("PATCH /team-permission-definitions/:permission_id", request);
    else await this.ctx.api.call("PATCH /project-permission-definitions/:permission_id", request);
    this.changed();
  }

  async delete(scope: Scope, permissionId: string): Promise<void> {
    const request = { ...this.asAdmin, params: { permission_id: permissionId } };
    if (scope === "team") await this.ctx.api.call("DELETE /team-permission-definitions/:permission_id", request);
    else await this.ctx.api.call("DELETE /project-permission-definitions/:permission_id", request);
    this.changed();
  }

  private changed(): void {
    this.#lists.invalidateAll();
    this.ctx.permissionsChanged();
  }

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.ctx.adminSession } as const;
  }
}
