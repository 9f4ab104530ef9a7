#!/usr/bin/env node
// `npm test`: type-check every package, lint (ESLint, which holds the layers;
// the Dockerfile's linter; then Prettier's format check), then run every test — on embedded
// PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set —
// including the browser tests, in Debian's Chromium (installed if missing).
// Extra arguments go to vitest (e.g. `npm test -- users`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

for (const pkg of [
  "packages/shared",
  "packages/server",
  "packages/js",
  "packages/react",
  "apps/demo",
  "apps/dev-oidc-provider",
  "apps/dashboard",
]) {
  if (run("npx", ["tsc", "-p", pkg]) !== 0) {
    console.error(`Type errors in ${pkg}.`);
    process.exit(1);
  }
}

if (run("npx", ["eslint", "."]) !== 0) {
  console.error("Lint errors (see above; each message says what to do instead).");
  process.exit(1);
}
if (run("node", ["scripts/lint-dockerfile.mjs"]) !== 0) {
  console.error("Dockerfile problems (see above): fix them, or `node scripts/lint-dockerfile.mjs --fix` for the layout.");
  process.exit(1);
}
if (run("npx", ["prettier", "--check", "."]) !== 0) {
  console.error("Files not formatted as Prettier would: run `npm run format`.");
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
const status = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
try {
  const { numPassedTests, numFailedTests, numPendingTests, testResults } = JSON.parse(readFileSync(report, "utf8"));
  printSlowest(testResults);
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
