/**
 * Constants and environment knobs shared by every part of the benchmark
 * (run.ts and the modules it uses), in one place so a knob is read once and
 * means the same everywhere.
 *
 * Knobs (environment): BENCH_DURATION seconds per scenario (default 8),
 * BENCH_SCENARIOS comma list to run a subset (footprint,hello,floor,me,api-key-check,teams,team-permissions,refresh,refresh-distinct,sign-in,sign-in-cheap-hash,mfa-sign-in,passkey-sign-in,sign-up,sign-up-webhooks,users-page),
 * BENCH_CPU_PROF directory for `node --cpu-prof` profiles of the server,
 * BENCH_NO_WRITE=1 to leave BENCHMARKS.md alone.
 */
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const SERVER_ENTRY = "packages/server/src/main.ts";
export const HELLO_ENTRY = "packages/server/bench/hello-server.ts";
export const CONNECTIONS = 64;
export const POOL_SIZE = 64;
/**
 * Sessions for the refresh-distinct scenario: more than the refreshes the
 * server can answer in a second, so no session is refreshed twice in one.
 */
export const DISTINCT_SESSIONS = 8_000;
export const DURATION = Number(process.env.BENCH_DURATION ?? 8);
export const WARMUP = 1;
/** Failed sign-ins per kind in the timing probe: 2×60 stays under the limit of 200 per address. */
export const PROBE_COUNT = 60;
export const PASSWORD = "correct horse battery staple";
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(",").map((s) => s.trim())) : null;
export const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
export const SEED = {
  publishableClientKey: `pck_bench_${randomBytes(20).toString("hex")}`,
  secretServerKey: `ssk_bench_${randomBytes(20).toString("hex")}`,
  superSecretAdminKey: `sak_bench_${randomBytes(20).toString("hex")}`,
};
export const RUN_ID = randomBytes(4).toString("hex");

export const wanted = (name: string) => !ONLY || ONLY.has(name);
/** BENCH_NO_WRITE: print the results but leave BENCHMARKS.md alone. */
export const NO_WRITE = Boolean(process.env.BENCH_NO_WRITE);
