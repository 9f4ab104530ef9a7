/**
 * `npm run bench`: throughput and latency of the hot endpoints against the
 * real server, each as a share of a bare Hono route (the ceiling).
 *
 * For each database (embedded PGlite; then PostgreSQL when DATABASE_URL is
 * set, in a fresh database created and dropped here) the real server runs as
 * a child process, so server and load generator sit on separate cores. The
 * API is seeded through HTTP (owner → project → keys → a pool of end users),
 * then autocannon drives each scenario at 64 connections. Results go to
 * stdout and to BENCHMARKS.md at the repository root.
 *
 * Knobs (environment): BENCH_DURATION seconds per scenario (default 8),
 * BENCH_SCENARIOS comma list to run a subset (footprint,hello,floor,me,api-key-check,refresh,refresh-distinct,sign-in,sign-up,sign-up-webhooks,users-page;
 * `BENCH_SCENARIOS=footprint` measures only what `npm start` costs: start times and idle memory, see footprint.ts),
 * BENCH_CPU_PROF directory for `node --cpu-prof` profiles of the server,
 * BENCH_NO_WRITE=1 to leave BENCHMARKS.md alone.
 *
 * This file is the orchestrator only; the parts, in the order a run uses them:
 * - config.ts      constants and the environment knobs above
 * - processes.ts   child processes (server, hello), temp dir, bench database, clean-up on errors and signals
 * - setup.ts       the small HTTP client, bursts, and the seeded fixture (owner, project, keys, user pool)
 * - scenarios.ts   autocannon scenarios by area (read-, api-key-, sign-in-, sign-up-scenarios.ts), race burst
 * - ceiling.ts     the hello ceiling, before and after the scenarios
 * - report.ts      tables, verdicts and BENCHMARKS.md (hand-written notes below the marker are kept)
 * - hello-server.ts the bare Hono app measured as the ceiling (its own process)
 */
import { loadavg } from "node:os";
import { POOL_SIZE, wanted } from "./config.ts";
import {
  cleanups,
  createBenchDatabase,
  freePort,
  killAll,
  makeDataDir,
  removeDataDir,
  startServer,
  stopChild,
  waitReady,
  type Child,
} from "./processes.ts";
import { buildFirst, footprint, footprintTable } from "./footprint.ts";
import { writeReport } from "./report.ts";
import { hello, meanCeiling } from "./ceiling.ts";
import type { DatabaseReport } from "./scenario-run.ts";
import { runScenarios } from "./scenarios.ts";
import { seed } from "./setup.ts";
import { usersPageBench, usersPageTable } from "./users-page.ts";

/**
 * One database from start to end: its own data directory (and bench database
 * on PostgreSQL), the hello ceiling, the server, the seed, the scenarios.
 * Never throws: a failure is recorded in the report, and the clean-up (stop
 * the server, drop the database, remove the directory) runs in any case —
 * also from the signal handler in processes.ts while it is registered.
 */
async function benchDatabase(label: string, databaseUrl: string | null): Promise<DatabaseReport> {
  const report: DatabaseReport = {
    label,
    load: [loadavg()[0]!, NaN],
    hash: null,
    meDuringSignIn: null,
    ceiling: null,
    rows: [],
    burst: null,
    race: null,
    probe: null,
    webhookDeliveries: null,
    serverErrors: [],
    failure: null,
  };
  const dataDir = makeDataDir();
  let dropDatabase: (() => Promise<void>) | null = null;
  let child: Child | null = null;
  const cleanup = async () => {
    if (child) await stopChild(child);
    if (dropDatabase) await dropDatabase();
    dropDatabase = null;
    removeDataDir(dataDir);
  };
  cleanups.push(cleanup);
  try {
    let url = databaseUrl;
    if (databaseUrl) {
      const database = await createBenchDatabase(databaseUrl);
      dropDatabase = database.drop;
      url = database.url;
    }

    if (wanted("hello")) {
      process.stdout.write(`[${label}] hello (ceiling)…\n`);
      report.ceiling = await hello();
    }

    const port = await freePort();
    const server = startServer(label, port, dataDir, url);
    child = server;
    const base = `http://127.0.0.1:${port}`;
    process.stdout.write(`[${label}] starting server…\n`);
    await waitReady(`${base}/api/v1`, server);

    process.stdout.write(`[${label}] seeding (owner, project, ${POOL_SIZE} users in parallel)…\n`);
    const fx = await seed(base);
    report.burst = fx.burst;

    await runScenarios(label, base, server.process.pid!, fx, report);
    report.serverErrors = server.errorLines();
    await stopChild(server);
    child = null;

    // The machine's speed drifts over a run: the ceiling is the mean of a run
    // before the scenarios and one after them.
    if (report.ceiling) {
      process.stdout.write(`[${label}] hello (ceiling) again…\n`);
      report.ceiling = meanCeiling(report.ceiling, await hello());
    }
  } catch (error) {
    report.failure = error instanceof Error ? error.message : String(error);
    if (child) report.serverErrors = child.errorLines();
    console.error(`[${label}] failed: ${report.failure}`);
  } finally {
    await cleanup();
    cleanups.splice(cleanups.indexOf(cleanup), 1);
    report.load[1] = loadavg()[0]!;
  }
  return report;
}

async function main(): Promise<void> {
  if (wanted("users-page")) {
    // In-process, on its own databases: the users page's requests at 100,000 users, with their plans.
    const tables = [usersPageTable("PGlite", await usersPageBench("PGlite", null))];
    if (process.env.DATABASE_URL) tables.push(usersPageTable("PostgreSQL", await usersPageBench("PostgreSQL", process.env.DATABASE_URL)));
    process.stdout.write(`\n${tables.join("\n\n")}\n\n`);
    if (process.env.BENCH_SCENARIOS === "users-page") return;
  }
  let footprintSection: string | null = null;
  if (wanted("footprint")) {
    buildFirst();
    const rows = [await footprint("PGlite", null)];
    if (process.env.DATABASE_URL) rows.push(await footprint("PostgreSQL", process.env.DATABASE_URL));
    footprintSection = footprintTable(rows);
    process.stdout.write(`\n${footprintSection}\n\n`);
    if (process.env.BENCH_SCENARIOS === "footprint") return;
  }
  const started = Date.now();
  const load0 = loadavg()[0]!;
  const reports: DatabaseReport[] = [await benchDatabase("PGlite", null)];
  const pg = process.env.DATABASE_URL;
  if (pg) reports.push(await benchDatabase("PostgreSQL", pg));
  const load1 = loadavg()[0]!;

  writeReport(reports, started, load0, load1, footprintSection);
  if (reports.some((r) => r.failure)) process.exitCode = 1;
}

try {
  await main();
} finally {
  killAll();
}
