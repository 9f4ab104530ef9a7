/** Writing one level's override: locked, merged into what is stored, announced to the caches on commit. */
import {
  migrateConfigOverride,
  parseConfigOverrideString,
  refuseNewConfigProblems,
  validateConfigOverride,
  type ConfigLevel,
  type ConfigOverride,
  type ConfigSourceJson,
  StatusError,
} from "@latchkey/shared";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { projects } from "../../db/schema/index.ts";
import type { Events } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { checkProductionMode, ProductionModeRefused } from "../projects/manage.ts";
import type { ProjectStore } from "../projects/projects.ts";
import { projectConfigOf } from "./legacy.ts";
import type { Tenancy } from "../../db/tenancy.ts";
import { readOverrides, renderOverrides, saveOverride, setConfigSource, type StoredOverrides } from "./store.ts";

export interface ConfigWriter {
  db: Db;
  events: Events;
  serverSecret: string;
  projects: ProjectStore;
}

/** `next` computes the level's new override from the stored one. */
export function writeConfigOverride(
  w: ConfigWriter,
  t: Tenancy,
  level: ConfigLevel,
  next: (stored: ConfigOverride) => ConfigOverride,
  source?: ConfigSourceJson,
): Promise<void> {
  return w.events.transaction(w.db, async (tx) => {
    // The project row first, as the project PATCH locks it: turning production mode on waits for this write.
    const [project] = await tx
      .select({ isProductionMode: projects.isProductionMode })
      .from(projects)
      .where(eq(projects.id, t.projectId))
      .for("update");
    const stored = await readOverrides(tx, t, level);
    const override = next(stored[level]);
    const before = renderOverrides(stored);
    // Keys that name each other (a product and its product line, say) may sit at different levels: checked on the whole.
    refuseNewConfigProblems(before, renderOverrides({ ...stored, [level]: override }));
    const sealed = await saveOverride(tx, w.serverSecret, t, level, override, before, source);
    refuseWhatProductionForbids(w.serverSecret, t.projectId, project?.isProductionMode ?? false, { ...stored, [level]: sealed });
    await w.projects.changed(tx, t.projectId);
  });
}

/** The same production rules the project PATCH holds to, so both ways of configuring agree; answered as 400 text. */
function refuseWhatProductionForbids(serverSecret: string, projectId: string, production: boolean, stored: StoredOverrides): void {
  try {
    checkProductionMode(projectId, production, projectConfigOf(renderOverrides(stored), serverSecret));
  } catch (error) {
    if (error instanceof ProductionModeRefused) throw new StatusError(400, error.message);
    throw error;
  }
}

export function writeConfigSource(w: ConfigWriter, t: Tenancy, source: ConfigSourceJson): Promise<void> {
  return w.events.transaction(w.db, async (tx) => {
    await setConfigSource(tx, t, source);
    await w.projects.changed(tx, t.projectId);
  });
}

export function configWriterOf(services: Pick<Services, "db" | "events" | "config" | "projects">): ConfigWriter {
  return { db: services.db, events: services.events, serverSecret: services.config.serverSecret, projects: services.projects };
}

/** An override as a client sent it (a JSON string): parsed, older names carried over, checked against what `level` may set. */
export function acceptedOverride(level: ConfigLevel, text: string): ConfigOverride {
  const override = migrateConfigOverride(level, parseConfigOverrideString(text));
  validateConfigOverride(level, override);
  return override;
}
