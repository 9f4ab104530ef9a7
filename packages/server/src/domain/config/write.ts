/** Writing one level's override: locked, merged into what is stored, announced to the caches on commit. */
import {
  migrateConfigOverride,
  parseConfigOverrideString,
  validateConfigOverride,
  type ConfigLevel,
  type ConfigOverride,
  type ConfigSourceJson,
} from "@latchkey/shared";
import type { Db } from "../../db/connect.ts";
import type { Events } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import type { ProjectStore } from "../projects/projects.ts";
import type { Tenancy } from "../../db/tenancy.ts";
import { readOverrides, renderOverrides, saveOverride, setConfigSource } from "./store.ts";

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
    const stored = await readOverrides(tx, t, level);
    await saveOverride(tx, w.serverSecret, t, level, next(stored[level]), renderOverrides(stored), source);
    await w.projects.changed(tx, t.projectId);
  });
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
