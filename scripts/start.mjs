#!/usr/bin/env node
// `npm start`: builds what is stale (the server, the dashboard it serves at /
// and the SDK's packages it serves at /sdk/) in a child process, then runs the built server (packages/server/dist/
// main.js) in this process: one node process, no TypeScript compiler.
// LATCHKEY_DASHBOARD=off serves the API alone; `npm start -- migrate` only migrates.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { dashboardBuildIsCurrent, dashboardDist } from "./lib/dashboard-build.mjs";
import { repoRoot } from "./lib/latchkey-server.mjs";
import { sdkPackedDir, sdkPackedIsCurrent } from "./lib/sdk-build.mjs";
import { serverBuildIsCurrent, serverDist } from "./lib/server-build.mjs";

const command = process.argv[2] ?? "start";
const serveDashboard = command === "start" && process.env.LATCHKEY_DASHBOARD !== "off" && !process.env.LATCHKEY_DASHBOARD_DIR;

const serveSdk = command === "start" && !process.env.LATCHKEY_SDK_DIR;

const stale = [
  ...(serverBuildIsCurrent() ? [] : ["server"]),
  ...(serveDashboard && !dashboardBuildIsCurrent() ? ["dashboard"] : []),
  ...(serveSdk && !sdkPackedIsCurrent() ? ["sdk"] : []),
];
if (stale.length > 0) {
  const build = spawnSync(process.execPath, [join(repoRoot, "scripts", "build.mjs"), ...stale], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (serveDashboard) process.env.LATCHKEY_DASHBOARD_DIR = dashboardDist;
// The SDK's packed tarballs, served at /sdk/ for apps to install from this server.
if (serveSdk) process.env.LATCHKEY_SDK_DIR = sdkPackedDir;
process.argv[2] = command;
await import(pathToFileURL(join(serverDist, "main.js")).href);
