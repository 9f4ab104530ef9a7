/**
 * Versions before config overrides kept each project's whole config as one
 * document in `projects.config`. At start-up each such document becomes the
 * project's overrides (config/legacy.ts writes every field, so nothing
 * changes meaning), its secrets sealed on the way, and the column is
 * cleared. Each project moves in its own transaction with its row locked,
 * so replicas starting together move it once.
 */
import { applyConfigOverride } from "@latchkey/shared";
import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { projects } from "../../db/schema/index.ts";
import { legacyConfigOverrides } from "./legacy.ts";
import { mainBranch, readOverrides, renderOverrides, saveOverride } from "./store.ts";

/** Returns how many projects it moved. */
export async function migrateLegacyProjectConfigs(db: Db, serverSecret: string): Promise<number> {
  const rows = await db.select({ id: projects.id }).from(projects).where(isNotNull(projects.legacyConfig));
  let moved = 0;
  for (const { id } of rows) {
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ config: projects.legacyConfig }).from(projects).where(eq(projects.id, id)).for("update");
      if (!row?.config) return;
      const legacy = legacyConfigOverrides(row.config);
      const t = mainBranch(id);
      // Anything already written through the overrides is newer than the document: it stays on top.
      const environmentBefore = await readOverrides(tx, t, "environment");
      const environment = applyConfigOverride(legacy.environment, environmentBefore.environment);
      await saveOverride(tx, serverSecret, t, "environment", environment, renderOverrides(environmentBefore));
      const projectBefore = await readOverrides(tx, t, "project");
      await saveOverride(
        tx,
        serverSecret,
        t,
        "project",
        applyConfigOverride(legacy.project, projectBefore.project),
        renderOverrides(projectBefore),
      );
      await tx.update(projects).set({ legacyConfig: null }).where(eq(projects.id, id));
      moved++;
    });
  }
  return moved;
}
