/**
 * Reading and writing projects. Reads go through a per-process cache with a
 * short life (DESIGN: caches are per-process and short-lived), invalidated
 * at once on local writes; other replicas see a change within the TTL.
 */
import { INTERNAL_PROJECT_DISPLAY_NAME, INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { projects } from "../../db/schema/index.ts";
import { internalProjectConfig } from "./config.ts";

export type ProjectRow = typeof projects.$inferSelect;

const CACHE_TTL_MILLIS = 2000;

export class ProjectStore {
  private readonly cache = new Map<string, { row: ProjectRow | null; at: number }>();

  constructor(private readonly db: Db) {}

  async get(id: string): Promise<ProjectRow | null> {
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < CACHE_TTL_MILLIS) return hit.row;
    const rows = await this.db.select().from(projects).where(eq(projects.id, id)).limit(1);
    const row = rows[0] ?? null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { row, at: Date.now() });
    return row;
  }

  invalidate(id: string): void {
    this.cache.delete(id);
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
}
