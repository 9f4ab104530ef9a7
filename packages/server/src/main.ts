#!/usr/bin/env node
/**
 * latchkey start    serve the API (PGlite under .latchkey/ unless DATABASE_URL)
 * latchkey migrate  apply pending migrations and exit
 */
import { serve } from "@hono/node-server";
import { INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { configFromEnv, type ServerConfig } from "./config.ts";
import { connectDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { createKeySet, isValidProjectKey, newProjectKey } from "./domain/api-keys/project-keys.ts";
import { startInstance, type Instance } from "./server.ts";

const command = process.argv[2] ?? "start";
const config = configFromEnv();

if (command === "migrate") {
  const database = await connectDatabase(
    config.databaseUrl ? { kind: "postgres", url: config.databaseUrl } : { kind: "pglite", dataDir: config.dataDir },
  );
  const applied = await migrate(database);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
  await database.close();
} else if (command === "start") {
  const instance = await startInstance(config);
  const keys = await devKeys(instance, config);
  instance.services.dashboard?.setPublishableClientKey(keys.publishable_client_key ?? null);
  const server = serve({ fetch: instance.app.fetch, port: config.port, hostname: process.env.HOST ?? "0.0.0.0" }, () => {
    const lines = [
      "",
      ...(instance.services.dashboard ? [`  Dashboard: ${config.apiUrl}/`] : []),
      `  API:       ${config.apiUrl}/api/v1`,
      `  Database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`}`,
      "",
      `  Internal project (id "${INTERNAL_PROJECT_ID}") keys:`,
      ...Object.entries(keys).map(([name, value]) => `    ${name.padEnd(24)} ${value}`),
      "",
    ];
    console.log(lines.join("\n"));
  });
  const stop = () => {
    server.close();
    void instance.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  console.error(`Unknown command ${JSON.stringify(command)}. Use: start | migrate`);
  process.exit(2);
}

/**
 * The internal project's keys to print. Seeded keys (STACK_SEED_*) when set;
 * otherwise a development key set kept in .latchkey/dev-keys.json, so every
 * start prints the same working keys.
 */
async function devKeys(instance: Instance, config: ServerConfig): Promise<Record<string, string>> {
  const seeds = config.seedInternalKeys;
  if (seeds.publishableClientKey || seeds.secretServerKey || seeds.superSecretAdminKey) {
    return Object.fromEntries(
      [
        ["publishable_client_key", seeds.publishableClientKey],
        ["secret_server_key", seeds.secretServerKey],
        ["super_secret_admin_key", seeds.superSecretAdminKey],
      ].filter(([, v]) => v) as [string, string][],
    );
  }
  const file = join(dirname(config.dataDir), "dev-keys.json");
  const db = instance.services.db;
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    if (await isValidProjectKey(db, INTERNAL_PROJECT_ID, "secret_server_key", saved.secret_server_key ?? "")) return saved;
  }
  const values = {
    publishable_client_key: newProjectKey("publishable_client_key"),
    secret_server_key: newProjectKey("secret_server_key"),
    super_secret_admin_key: newProjectKey("super_secret_admin_key"),
  };
  await createKeySet(db, { projectId: INTERNAL_PROJECT_ID, description: "Development keys", expiresAt: null, values });
  writeFileSync(file, JSON.stringify(values, null, 2), { mode: 0o600 });
  return values;
}
