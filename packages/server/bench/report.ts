/**
 * Turning DatabaseReports into Markdown: the results table per database, the
 * verdicts against the targets, the robustness and security facts, and the
 * whole BENCHMARKS.md (header with date, revision and machine; sections; how
 * to run). The sections are printed to stdout; the file is rewritten unless
 * BENCH_NO_WRITE is set, and everything below NOTES_MARKER in the old file
 * (notes written by hand) is carried over unchanged.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { CONNECTIONS, DISTINCT_SESSIONS, DURATION, NO_WRITE, POOL_SIZE, ROOT, WARMUP } from "./config.ts";
import { API_KEY_CHECK, USERS_ME_PAIRED } from "./api-key-scenario.ts";
import type { Row } from "./cannon.ts";
import { USERS_ME } from "./read-scenarios.ts";
import type { DatabaseReport } from "./scenario-run.ts";
import { SIGN_UP, SIGN_UP_WEBHOOKS } from "./sign-up-scenarios.ts";
import type { BurstResult } from "./setup.ts";

const TARGETS = [
  { scenario: USERS_ME, share: 0.5 },
  { scenario: "POST /auth/sessions/current/refresh", share: 0.3 },
];
/** The API key check's throughput as a share of the session read's (GET /users/me) in the same run. */
const API_KEY_CHECK_SHARE = 0.8;
/** The sign-up's throughput with webhook endpoints on the project, as a share of the plain sign-up's in the same run. */
const SIGN_UP_WEBHOOKS_SHARE = 0.95;
/** Sign-in counts as hash-bound when the hash is at least this share of its server CPU time. */
const HASH_BOUND_SHARE = 0.7;

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

function table(report: DatabaseReport): string {
  const ceiling = report.ceiling?.rps ?? NaN;
  const lines = [
    "| scenario | req/s | p50 ms | p99 ms | errors | % of ceiling | server CPU | server CPU ms/req | % of ceiling by CPU | autocannon CPU |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const rows = report.ceiling ? [report.ceiling, ...report.rows] : report.rows;
  for (const row of rows) {
    const errors = row.errors === 0 ? "0" : `**${row.errors}** (${row.errorDetail})`;
    lines.push(
      `| ${row.scenario} | ${fmt(row.rps)} | ${row.p50} | ${row.p99} | ${errors} | ${fmt((row.rps / ceiling) * 100, 1)}% | ` +
        `${fmt(row.serverCpu * 100)}% | ${fmt(cpuPerRequest(row), 2)} | ${fmt(cpuShare(report, row) * 100, 1)}% | ${fmt(row.loadCpu * 100)}% |`,
    );
  }
  return lines.join("\n");
}

/** Server CPU milliseconds per successful request (all threads). */
function cpuPerRequest(row: Row): number {
  return (row.serverCpu * 1000) / row.rps;
}

/** The ceiling's CPU per request over this row's: the req/s ratio one core would give with nothing else running. */
function cpuShare(report: DatabaseReport, row: Row): number {
  return report.ceiling ? cpuPerRequest(report.ceiling) / cpuPerRequest(row) : NaN;
}

function burstLine(b: BurstResult): string {
  const statuses = Object.entries(b.statuses)
    .map(([k, v]) => `${v}× ${k}`)
    .join(", ");
  return `${statuses}; ${b.fiveXx} × 5xx, ${b.timeouts} timeouts; slowest ${fmt(b.slowestMillis)} ms`;
}

function verdicts(report: DatabaseReport): string[] {
  const out: string[] = [];
  const ceiling = report.ceiling?.rps ?? NaN;
  for (const target of TARGETS) {
    const row = report.rows.find((r) => r.scenario === target.scenario);
    if (!row) continue;
    const share = row.rps / ceiling;
    const met = share >= target.share && row.errors === 0;
    out.push(
      `- \`${target.scenario}\` ≥ ${target.share * 100}% of the ceiling: ${fmt(share * 100, 1)}% — **${met ? "met" : "not met"}** ` +
        `(by CPU per request: ${fmt(cpuShare(report, row) * 100, 1)}%)`,
    );
  }
  // A cached check of an API key is a read like the session read: within 80% of it, in the same run (alternating
  // with it when both are measured: api-key-scenario.ts).
  const me = report.rows.find((r) => r.scenario === USERS_ME_PAIRED) ?? report.rows.find((r) => r.scenario === USERS_ME);
  const check = report.rows.find((r) => r.scenario === API_KEY_CHECK);
  if (me && check) {
    const share = check.rps / me.rps;
    const met = share >= API_KEY_CHECK_SHARE && check.errors === 0;
    out.push(
      `- \`${API_KEY_CHECK}\` ≥ ${API_KEY_CHECK_SHARE * 100}% of \`${me.scenario}\` in the same run: ${fmt(check.rps)} vs ${fmt(me.rps)} req/s, ` +
        `${fmt(share * 100, 1)}% — **${met ? "met" : "not met"}** (by CPU per request: ${fmt((cpuPerRequest(me) / cpuPerRequest(check)) * 100, 1)}%)`,
    );
  }
  // Webhook messages and jobs are written in the sign-up's transaction, delivered after it: the sign-up barely slows.
  const signUp = report.rows.find((r) => r.scenario === SIGN_UP);
  const withWebhooks = report.rows.find((r) => r.scenario === SIGN_UP_WEBHOOKS);
  if (signUp && withWebhooks) {
    const share = withWebhooks.rps / signUp.rps;
    const met = share >= SIGN_UP_WEBHOOKS_SHARE && withWebhooks.errors === 0;
    out.push(
      `- \`${SIGN_UP_WEBHOOKS}\` within ${fmt((1 - SIGN_UP_WEBHOOKS_SHARE) * 100)}% of \`${SIGN_UP}\` in the same run: ` +
        `${fmt(withWebhooks.rps, 1)} vs ${fmt(signUp.rps, 1)} req/s, ${fmt(share * 100, 1)}% — **${met ? "met" : "not met"}** ` +
        `(server CPU per sign-up ${fmt(cpuPerRequest(withWebhooks), 2)} vs ${fmt(cpuPerRequest(signUp), 2)} ms, deliveries included)`,
    );
  }
  const d = report.webhookDeliveries;
  if (d) {
    out.push(
      `- Webhook deliveries sustained by one process: ${fmt(d.deliveries / d.drainedSeconds, 1)}/s ` +
        `(${d.deliveries} deliveries to the receiver in the bench process from the load's start until drained (a last sign-up marks the end), ${fmt(d.drainedSeconds, 1)} s; ` +
        `${d.duringLoad} of them during the ${fmt(d.loadSeconds, 1)} s of load, ${fmt(d.duringLoad / d.loadSeconds, 1)}/s; ` +
        `${fmt((d.deliveries - d.duringLoad) / (d.drainedSeconds - d.loadSeconds), 1)}/s after it, with no other load)`,
    );
  }
  const signIn = report.rows.find((r) => r.scenario === "POST /auth/password/sign-in");
  const hash = report.hash;
  if (signIn && hash) {
    // CPU time, not wall time: other load on the machine cancels out.
    const share = hash.cpuMillis / cpuPerRequest(signIn);
    const met = share >= HASH_BOUND_SHARE && signIn.errors === 0;
    out.push(
      `- sign-in bound by the hash: one argon2id verify costs ${fmt(hash.cpuMillis, 1)} ms of CPU, one sign-in ${fmt(cpuPerRequest(signIn), 1)} ms of ` +
        `server CPU, so the hash is ${fmt(share * 100)}% of it (bound when ≥ ${HASH_BOUND_SHARE * 100}%) — **${met ? "met" : "not met"}**. ` +
        `Throughput: ${fmt(signIn.rps, 1)} req/s vs ${fmt(hash.rps, 1)} bare verifies/s at ${CONNECTIONS} concurrent in the bench process just before ` +
        `(${fmt((signIn.rps / hash.rps) * 100)}%; one verify alone ${fmt(hash.singleMillis, 1)} ms).`,
    );
  }
  return out;
}

function section(report: DatabaseReport): string {
  const parts = [`### ${report.label}`, "", `Load average ${fmt(report.load[0], 2)} → ${fmt(report.load[1], 2)} during this section.`, ""];
  if (report.failure) parts.push(`**Run failed:** \`${report.failure.split("\n")[0]}\``, "");
  if (report.ceiling || report.rows.length) parts.push(table(report), "");
  const v = verdicts(report);
  if (v.length) parts.push("Targets:", "", ...v, "");
  const facts: string[] = [];
  if (report.burst) facts.push(`- ${POOL_SIZE} concurrent sign-ups (distinct e-mails): ${burstLine(report.burst)}`);
  if (report.race) facts.push(`- ${CONNECTIONS} concurrent sign-ups of one e-mail: ${burstLine(report.race)}`);
  if (report.meDuringSignIn) {
    const m = report.meDuringSignIn;
    facts.push(
      `- One client reading \`GET /users/me\` in a loop: median ${fmt(m.idle, 1)} ms on an idle server, ${fmt(m.busy, 1)} ms during the sign-in load (${m.count} requests)`,
    );
  }
  if (report.probe) {
    const p = report.probe;
    const diff = p.wrongPassword - p.unknownEmail;
    const rel = Math.abs(diff) / Math.max(p.wrongPassword, p.unknownEmail);
    facts.push(
      `- Timing (sequential, ${p.counted} each, median): wrong password ${fmt(p.wrongPassword, 1)} ms vs unknown e-mail ${fmt(p.unknownEmail, 1)} ms ` +
        `(difference ${fmt(diff, 1)} ms, ${fmt(rel * 100, 1)}%; ${rel <= 0.15 ? "indistinguishable" : "**distinguishable**"}); correct password ${fmt(p.correct, 1)} ms` +
        (p.rateLimited ? `; ${p.rateLimited} answered 429` : "") +
        (p.unexpected.length ? `; unexpected: ${p.unexpected.join("; ")}` : ""),
    );
  }
  facts.push(
    report.serverErrors.length
      ? `- Server logged ${report.serverErrors.length} error line(s), first: \`${report.serverErrors[0]!.slice(0, 300)}\``
      : "- Server logged no errors.",
  );
  parts.push("Robustness and security:", "", ...facts, "");
  return parts.join("\n");
}

/** Text from this marker on is written by hand and kept when the file is rewritten. */
const NOTES_MARKER = "<!-- Notes below this line are written by hand; npm run bench keeps them. -->";

function previousNotes(): string {
  try {
    const old = readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8");
    const at = old.indexOf(NOTES_MARKER);
    if (at >= 0) return old.slice(at + NOTES_MARKER.length).replace(/^\n/, "");
  } catch {
    // first run
  }
  return "";
}

/** The commit measured, and whether the server's sources differ from it. */
function revision(): string {
  if (process.env.BENCH_REVISION) return process.env.BENCH_REVISION;
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    const dirty = git("status", "--porcelain", "--", "packages/server/src", "packages/shared/src") !== "";
    return `commit ${head}${dirty ? " plus uncommitted changes in packages/*/src" : ""}`;
  } catch {
    return "unknown revision (no git)";
  }
}

function machine(): string[] {
  let model = cpus()[0]?.model ?? "unknown";
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? model;
  } catch {
    // not Linux
  }
  return [`${cpus().length} cores (${model})`, `Node ${process.version}`, `${process.platform} ${process.arch}`];
}

/**
 * Prints every section to stdout and, unless BENCH_NO_WRITE, rewrites
 * BENCHMARKS.md at the repository root. `started` is the run's start (epoch
 * millis); `load0` and `load1` the 1-minute load average at start and end.
 */
export function writeReport(
  reports: DatabaseReport[],
  started: number,
  load0: number,
  load1: number,
  footprint: string | null = null,
): void {
  const body = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (packages/server/bench/run.ts); rerun to refresh. Each figure is compared with a bare",
    "Hono route on @hono/node-server (the same framework and adapter) measured on the same machine in the same run:",
    "the ceiling. Server and hello app each run as one child process; autocannon runs in the parent, so load",
    `generator and server use separate cores. ${CONNECTIONS} connections, ${DURATION} s per scenario after a ${WARMUP} s warm-up`,
    "(all but sign-in and sign-up), one autocannon worker, a pool of 64 signed-up users whose tokens are used in turn.",
    "",
    "- req/s counts 2xx answers only; any other answer, socket error or timeout is an error and shows in the table.",
    "- `GET /api/v1/` (the welcome text, no credentials) is not a target: it is Latchkey's own request pipeline with",
    "  no authentication and no database, about the most any endpoint could reach.",
    "- The refresh target row cycles through the pool's 64 sessions, so each session is refreshed many times a",
    "  second; a token issued for the same session and claims within the same second is the one already signed",
    '  (`iat` has one-second resolution). The two rows "refresh: …" below it are not targets. They use',
    `  ${DISTINCT_SESSIONS.toLocaleString("en")} other sessions: first each once (read from the database, as a real client's refresh`,
    "  every few minutes mostly is), then in turn for the full duration (cached, but no session twice in a second,",
    "  so every request pays for an ES256 signature).",
    "- server CPU: CPU the Latchkey process used (all threads; 100% = one core busy) during the scenario, and per",
    "  request; \"% of ceiling by CPU\" is the hello server's CPU per request over the scenario's. PostgreSQL's own",
    "  processes are not included. These figures hold up better than req/s when other work runs on the machine.",
    "",
    `- Date: ${new Date(started).toISOString()}, whole run ${fmt((Date.now() - started) / 1000)} s`,
    `- Server: ${revision()}`,
    `- Machine: ${machine().join("; ")}; load average ${fmt(load0, 2)} at start, ${fmt(load1, 2)} at end`,
    `- Password hash: argon2id (19 MiB, t=2, p=1) on the libuv pool (${process.env.UV_THREADPOOL_SIZE ?? 4} threads)`,
    "",
    ...(footprint ? ["## Footprint", "", footprint, ""] : []),
    "## Results",
    "",
    ...reports.map((r) => section(r)),
    "## Targets",
    "",
    "Benchmarks, not tests: `GET /users/me` ≥ 50% of the ceiling; refresh ≥ 30%; `POST /user-api-keys/check` ≥ 80%",
    "of `GET /users/me`; sign-in bound by the hash; sign-up with 3 webhook endpoints within 5% of the plain sign-up",
    "(argon2id is the cost by design; the rest of the request should not matter next to it).",
    "",
    "## How to run",
    "",
    "```sh",
    "npm run bench                                                      # PGlite only",
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench # PGlite, then PostgreSQL",
    "```",
    "",
    "With `DATABASE_URL`, a fresh database `latchkey_bench_<random>` is created on that server and dropped afterwards",
    "(the role needs CREATEDB). Options: `BENCH_DURATION=<seconds>`, `BENCH_SCENARIOS=footprint,hello,floor,me,api-key-check,teams,team-permissions,refresh,refresh-distinct,sign-in,sign-up,sign-up-webhooks`,",
    "`BENCH_CPU_PROF=<dir>` (the server runs with `node --cpu-prof`; open the largest `.cpuprofile` in Chrome DevTools),",
    "`BENCH_NO_WRITE=1` (leave this file alone). Other load on the machine skews req/s; compare ratios and CPU per request.",
    "",
    NOTES_MARKER,
    previousNotes(),
  ].join("\n");

  process.stdout.write(`\n${reports.map((r) => section(r)).join("\n")}\n`);
  if (!NO_WRITE) {
    writeFileSync(join(ROOT, "BENCHMARKS.md"), body);
    process.stdout.write(`Wrote ${join(ROOT, "BENCHMARKS.md")}\n`);
  }
}
