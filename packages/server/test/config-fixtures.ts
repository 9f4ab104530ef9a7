/** Writing a project's config overrides directly, as domain code does (no validation): for states the API refuses to make. */
import { applyConfigOverride, type ConfigLevel, type ConfigOverride } from "@latchkey/shared";
import { mainBranch, readOverrides } from "../src/domain/config/store.ts";
import { configWriterOf, writeConfigOverride } from "../src/domain/config/write.ts";
import type { TestServer } from "./harness.ts";

export async function writeOverride(server: TestServer, projectId: string, level: ConfigLevel, override: ConfigOverride): Promise<void> {
  await writeConfigOverride(configWriterOf(server.instance.services), mainBranch(projectId), level, (stored) =>
    applyConfigOverride(stored, override),
  );
}

/** The overrides as the database holds them (secrets sealed). */
export function storedOverrides(server: TestServer, projectId: string) {
  return readOverrides(server.instance.services.db, mainBranch(projectId));
}
