/**
 * GET /health/live: the process is up and answering (a restart is the cure
 * when it is not). GET /health/ready: this replica can serve, its database
 * answering and its schema current (db/readiness.ts); load balancers send
 * traffic elsewhere while it answers 503. Both answer JSON and are never cached.
 */
import type { Readiness } from "../db/readiness.ts";
import { jsonResponse } from "./response.ts";

export const HEALTH_LIVE_PATH = "/health/live";
export const HEALTH_READY_PATH = "/health/ready";

export function liveResponse(): Response {
  return jsonResponse(200, { status: "ok" });
}

export async function readyResponse(readiness: Readiness): Promise<Response> {
  const result = await readiness.check();
  if (result.ready) return jsonResponse(200, { status: "ok", checks: { database: "ok", migrations: "ok" } });
  const checks =
    result.failed === "database"
      ? { database: "failed", migrations: "unknown" }
      : { database: "ok", migrations: "failed", pending_migrations: result.pendingMigrations ?? [] };
  return jsonResponse(503, { status: "unavailable", failed: result.failed, message: result.message, checks });
}
