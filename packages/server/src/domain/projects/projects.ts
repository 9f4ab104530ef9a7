/**
 * Reading projects through the shared cache; writes record an event so every
 * replica drops its copy when the write commits (events/transaction.ts). A
 * project is read with its main branch's config overrides, rendered once
 * per load (domain/config).
 */
import { DEFAULT_BRANCH_ID, INTERNAL_PROJECT_DISPLAY_NAME, INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { and, eq, type SQL } from "drizzle-orm";
import type { CacheBus } from "../../cache/bus.ts";
import type { Caches } from "../../cache/caches.ts";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { branchConfigOverrides, projectConfigOverrides, projects } from "../../db/schema/index.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { MaybePromise } from "../../lib/maybe-async.ts";
import { legacyConfigOverrides, projectConfigOf } from "../config/legacy.ts";
import { renderOverrides } from "../config/store.ts";
import { insertDefaultPermissionDefinitions } from "../permissions/defaults.ts";
import { internalProjectConfig } from "./config.ts";
import type { ProjectRow } from "./project-row.ts";

export type { ProjectRow } from "./project-row.ts";

/** Projects matching `where`, each with its rendered config. */
export async function loadProjects(db: DbOrTx, serverSecret: string, where: SQL | undefined): Promise<ProjectRow[]> {
  const rows = await db
    .select({ project: projects, projectOverride: projectConfigOverrides.override, branch: branchConfigOverrides })
    .from(projects)
    .leftJoin(projectConfigOverrides, eq(projectConfigOverrides.projectId, projects.id))
    .leftJoin(
      // tenancy: each project's main branch, joined to the project's row
      branchConfigOverrides,
      and(eq(branchConfigOverrides.projectId, projects.id), eq(branchConfigOverrides.branchId, DEFAULT_BRANCH_ID)),
    )
    .where(where);
  return rows.map(({ project: { legacyConfig: _, ...project }, projectOverride, branch }) => {
    const rendered = renderOverrides({
      project: projectOverride ?? {},
      branch: branch?.branchOverride ?? {},
      environment: branch?.environmentOverride ?? {},
    });
    return { ...project, rendered, config: projectConfigOf(rendered, serverSecret) };
  });
}

export class ProjectStore {
  constructor(
    private readonly db: Db,
    private readonly caches: Caches,
    private readonly bus: CacheBus,
    private readonly serverSecret: string,
  ) {}

  /** At once when cached (see lib/maybe-async.ts); await it anywhere. */
  get(id: string): MaybePromise<ProjectRow | null> {
    return this.caches.load(this.caches.projects, id, async () => {
      const rows = await loadProjects(this.db, this.serverSecret, eq(projects.id, id));
      return rows[0] ?? null;
    });
  }

  /** After writing a project (or what hangs off it, its config included), in the write's transaction: drop it everywhere when it commits. */
  changed(tx: EventTx, id: string): Promise<void> {
    return record(tx, { type: "project.updated", projectId: id, branchId: null, data: { id } });
  }

  /** Drops this process's copy only (for writes made outside the API, e.g. in tests). */
  invalidate(id: string): void {
    this.bus.apply({ t: "project", id });
  }
}

export async function ensureInternalProject(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(projects)
      .values({
        id: INTERNAL_PROJECT_ID,
        displayName: INTERNAL_PROJECT_DISPLAY_NAME,
        description: "The project that project owners sign in to.",
      })
      .onConflictDoNothing()
      .returning({ id: projects.id });
    if (inserted.length > 0) {
      const overrides = legacyConfigOverrides(internalProjectConfig());
      await tx.insert(projectConfigOverrides).values({ projectId: INTERNAL_PROJECT_ID, override: overrides.project });
      await tx
        .insert(branchConfigOverrides)
        .values({ projectId: INTERNAL_PROJECT_ID, branchId: DEFAULT_BRANCH_ID, environmentOverride: overrides.environment });
    }
    await insertDefaultPermissionDefinitions(tx, INTERNAL_PROJECT_ID);
  });
}
