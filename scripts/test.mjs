#!/usr/bin/env node
// `npm test`: type-check, then run every test (PGlite always; PostgreSQL too
// when TEST_DATABASE_URL is set).
import { spawnSync } from "node:child_process";

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npx", ["tsc", "-b", "packages/shared", "packages/server"]);
run("npx", ["vitest", "run", ...process.argv.slice(2)]);
