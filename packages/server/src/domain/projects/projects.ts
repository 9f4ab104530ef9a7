/**
 * Reading projects through the shared cache; writes record an event so every
 * replica drops its copy when the write commits (events/transaction.ts).
 */
import { INTERNAL_PROJECT_DISPLAY_NAME, INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import type { CacheBus } from "../../cache/bus.ts";
import type { Caches } from "../../cache/caches.ts";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import { projects } from "../../db/schema/index.ts";
import type { MaybePromise } from "../../lib/maybe-async.ts";
import { insertDefaultPermissionDefinitions } from "../permissions/defaults.ts";
import { internalProjectConfig } from "./config.ts";

export type ProjectRow = typeof projects.$inferSelect;

export class ProjectStore {
  constructor(
    private readonly db: Db,
    private readonly caches: Caches,
    private readonly bus: CacheBus,
  ) {}

  /** At once when cached (see lib/maybe-async.ts); await it anywhere. */
  get(id: string): MaybePromise<ProjectRow | null> {
    return this.caches.load(this.caches.projects, id, async () => {
      const rows = await this.db.select().from(projects).where(eq(projects.id, id)).limit(1);
      return rows[0] ?? null;
    });
  }

  /** After writing a project (or what hangs off it), in the write's transaction: drop it everywhere when it commits. */
  changed(tx: EventTx, id: string): Promise<void> {
    return record(tx, { type: "project.updated", projectId: id, branchId: null, data: { id } });
  }

  /** Drops this process's copy only (for writes made outside the API, e.g. in tests). */
  invalidate(id: string): void {
    this.bus.apply({ t: "project", id });
  }
}

export async function ensureInternalProject(db: DbOrTx): Promise<void> {
  await db
    .insert(projects)
    .values({
      id: INTERNAL_PROJECT_ID,
      displayName: INTERNAL_PROJECT_DISPLAY_NAME,
      description: "The project that project owners sign in to.",
      config: internalProjectConfig(),
    })
    .onConflictDoNothing();
  await insertDefaultPermissionDefinitions(db, INTERNAL_PROJECT_ID);
}
