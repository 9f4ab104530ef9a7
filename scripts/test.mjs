#!/usr/bin/env node
// `npm test`: type-check every package, lint (ESLint, which holds the layers;
// the Dockerfile's linter; then Prettier's format check), then run every test — on embedded
// PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set —
// including the browser tests, in Debian's Chromium (installed if missing).
// Extra arguments go to vitest (e.g. `npm test -- users`).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";
import { setTestOutputs } from "./lib/test-outputs.mjs";

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

// The checks are independent, so they run side by side, as many at once as the machine has cores (each is
// one single-threaded process); run one after another they took minutes of a CI run before any test.
// Each one's output is held and printed whole when it ends, so two checks never interleave their lines.
const tsc = (pkg) => ({ cmd: "npx", args: ["tsc", "-p", pkg], failure: `Type errors in ${pkg}.` });
// The longest first, so the last to start are short and no core idles long at the end.
const checks = [
  tsc("packages/server"),
  tsc("apps/dashboard"),
  tsc("packages/react"),
  { cmd: "npx", args: ["eslint", "."], failure: "Lint errors (see above; each message says what to do instead)." },
  { cmd: "npx", args: ["prettier", "--check", "."], failure: "Files not formatted as Prettier would: run `npm run format`." },
  tsc("apps/demo"),
  tsc("packages/js"),
  tsc("packages/shared"),
  tsc("apps/dev-oidc-provider"),
  {
    cmd: "node",
    args: ["scripts/lint-dockerfile.mjs"],
    failure: "Dockerfile problems (see above): fix them, or `node scripts/lint-dockerfile.mjs --fix` for the layout.",
  },
];
// A whole run also builds what the browser tests serve (the packed SDK, the dashboard, the demo app) in the same
// pool: vitest runs its global setups one after another before the first test, with one core busy and the other
// idle, where here they fill the gaps between the checks. The global setups then find them built and go on.
const vitestArgs = process.argv.slice(2);
if (vitestArgs.length === 0) {
  setTestOutputs();
  const build = (what) => ({
    cmd: "node",
    args: ["--import", "tsx", "scripts/lib/build-for-tests.mjs", what],
    failure: `Building the ${what} for the browser tests failed (see above).`,
  });
  checks.splice(1, 0, build("sdk"));
  checks.splice(4, 0, build("demo"), build("dashboard"));
}
const failures = await runAll(checks, availableParallelism());
if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}

try {
  ensureChromium();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "latchkey-test-"));
const report = join(dir, "report.json");
const vitestStarted = Date.now();
const status = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...vitestArgs]);
try {
  const { numPassedTests, numFailedTests, numPendingTests, testResults } = JSON.parse(readFileSync(report, "utf8"));
  printSlowest(testResults);
  printStart(testResults, vitestStarted);
  console.log(`\n${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
} catch {
  // No report: vitest failed before running; its own output says why.
}
rmSync(dir, { recursive: true, force: true });
process.exit(status);

/**
 * The test files that took longest (each run of a file counts apart: one per database), so the suite's time
 * is watched where it goes; the report has each file's start and end.
 */
function printSlowest(results, count = 15) {
  const files = results
    .map((r) => ({ name: r.name.replace(`${process.cwd()}/`, ""), seconds: (r.endTime - r.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds);
  const total = files.reduce((sum, f) => sum + f.seconds, 0);
  console.log(`\nSlowest test files (of ${files.length}; ${Math.round(total)} s in all, spread over the workers):`);
  for (const f of files.slice(0, count)) console.log(`${f.seconds.toFixed(1).padStart(8)} s  ${f.name}`);
}

/**
 * How long after vitest was started its first test began: its own start, the global set-ups (the database
 * templates, and whatever build the checks above did not leave current) and the first file's set-up, while no
 * test runs. A file's own times count from its first test, so its hooks (its server's start and stop) are in
 * neither figure.
 */
function printStart(results, started) {
  const firstTest = Math.min(...results.map((r) => r.startTime));
  if (Number.isFinite(firstTest)) console.log(`First test ${Math.round((firstTest - started) / 1000)} s after vitest was started.`);
}

/** Runs the checks, `width` at a time; answers the failure messages of those that failed, in the checks' order. */
async function runAll(list, width) {
  const failed = new Array(list.length).fill(null);
  let next = 0;
  async function worker() {
    while (next < list.length) {
      const index = next++;
      const { cmd, args, failure } = list[index];
      const started = Date.now();
      const { status, output } = await runHeld(cmd, args);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`${status === 0 ? "ok" : "FAILED"}  ${cmd} ${args.join(" ")}  (${seconds} s)\n${status === 0 ? "" : output}`);
      if (status !== 0) failed[index] = failure;
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
  return failed.filter((f) => f !== null);
}

function runHeld(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: process.env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
    child.on("close", (status) => resolve({ status: status ?? 1, output }));
  });
}
