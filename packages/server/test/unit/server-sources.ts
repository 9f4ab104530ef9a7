/** The server's source files, read for the checks that look at all of them (tenancy scope, import cycles). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const SERVER_SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every .ts file under packages/server/src, by absolute path. */
export function serverSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of readdirSync(SERVER_SRC, { recursive: true, encoding: "utf8" })) {
    if (file.endsWith(".ts")) sources[join(SERVER_SRC, file)] = readFileSync(join(SERVER_SRC, file), "utf8");
  }
  return sources;
}
