/**
 * The user API key check (POST /user-api-keys/check), as a server checking the keys it is given: one key per pool
 * user, each checked in turn; when /users/me is measured too, paired with it (report.ts holds the check to a share
 * of the session read's throughput).
 */
import { DURATION, WARMUP, wanted } from "./config.ts";
import { cannon, type CannonRequest, type Row } from "./cannon.ts";
import { meRequest } from "./read-scenarios.ts";
import type { ScenarioRun } from "./scenario-run.ts";
import { userApiKeys } from "./setup.ts";

export const API_KEY_CHECK = "POST /user-api-keys/check";
export const USERS_ME_PAIRED = "GET /users/me (alternating with the check)";
/** How many slices of each the check and its session read alternate in. */
const PAIRED_SLICES = 4;

/** Slices of one scenario as one row: mean throughput and CPU, the worst p99. */
function meanRow(scenario: string, rows: Row[]): Row {
  const mean = (pick: (row: Row) => number) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  return {
    scenario,
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...rows.map((r) => r.p99)),
    errors: rows.reduce((sum, r) => sum + r.errors, 0),
    errorDetail: rows
      .map((r) => r.errorDetail)
      .filter(Boolean)
      .join("; "),
    serverCpu: mean((r) => r.serverCpu),
    loadCpu: mean((r) => r.loadCpu),
  };
}

export async function apiKeyCheck(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  if (wanted("api-key-check")) {
    process.stdout.write(`[${label}] POST /user-api-keys/check…\n`);
    const request: CannonRequest[] = (await userApiKeys(base, fx)).map((apiKey) => ({
      method: "POST",
      path: "/api/v1/user-api-keys/check",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: apiKey }),
    }));
    await cannon("warm-up", base, { headers: fx.server, request, pid }, WARMUP);
    if (!wanted("me")) {
      report.rows.push(await cannon(API_KEY_CHECK, base, { headers: fx.server, request, pid }));
    } else {
      // Compared with the session read on a machine whose speed drifts within seconds: the two alternate in short
      // slices, and each row is the mean of its slices.
      const checks: Row[] = [];
      const reads: Row[] = [];
      const slice = Math.max(2, DURATION / PAIRED_SLICES);
      const me = meRequest(fx);
      for (let i = 0; i < PAIRED_SLICES; i++) {
        reads.push(await cannon(USERS_ME_PAIRED, base, { headers: fx.client, request: me, pid }, slice));
        checks.push(await cannon(API_KEY_CHECK, base, { headers: fx.server, request, pid }, slice));
      }
      report.rows.push(meanRow(API_KEY_CHECK, checks), meanRow(USERS_ME_PAIRED, reads));
    }
  }
}
