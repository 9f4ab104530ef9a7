/**
 * What a started server tells its operator. Development: the friendly banner
 * (where to open it, the internal project's keys), printed whole in one write.
 * Production: JSON log lines only, and never a key.
 */
import { INTERNAL_PROJECT_ID } from "@latchkey/shared";
import type { Logger } from "pino";
import type { ServerConfig } from "../config.ts";

export function printBanner(config: ServerConfig, hasDashboard: boolean, keys: Record<string, string>): void {
  const lines = [
    "",
    ...(hasDashboard ? [`  Dashboard: ${config.apiUrl}/`] : []),
    `  API:       ${config.apiUrl}/api/v1`,
    `  Database:  embedded PGlite in ${config.dataDir}`,
    "",
    `  Internal project (id "${INTERNAL_PROJECT_ID}") keys:`,
    ...Object.entries(keys).map(([name, value]) => `    ${name.padEnd(24)} ${value}`),
    "",
  ];
  console.log(lines.join("\n"));
}

export function logProductionStart(logger: Logger, config: ServerConfig, hasDashboard: boolean): void {
  logger.info(
    { apiUrl: config.apiUrl, port: config.port, database: config.databaseUrl ? "postgres" : "pglite", dashboard: hasDashboard },
    "Latchkey is serving",
  );
  const seeded = Object.values(config.seedInternalKeys).some(Boolean);
  if (!seeded) {
    logger.info(
      `Production mode prints no keys: project owners sign up ${hasDashboard ? `in the dashboard at ${config.apiUrl}/` : "through the API"} and create each project's keys there; for a headless set-up, give the internal project fixed keys with STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY, STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY and STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY.`,
    );
  }
}
