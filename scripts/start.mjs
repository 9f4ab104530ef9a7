#!/usr/bin/env node
// `npm start`: build the dashboard if its sources changed, then run the
// server (packages/server/src/main.ts), which serves it at /.
// LATCHKEY_DASHBOARD=off serves the API alone; `npm start -- migrate` only migrates.
import { ensureDashboardBuilt } from "./lib/dashboard-build.mjs";
import { ensureSdkPacked } from "./lib/sdk-build.mjs";

const command = process.argv[2] ?? "start";
if (command === "start" && process.env.LATCHKEY_DASHBOARD !== "off" && !process.env.LATCHKEY_DASHBOARD_DIR) {
  process.env.LATCHKEY_DASHBOARD_DIR = await ensureDashboardBuilt();
}
// The SDK's packages, served at /sdk/ for apps to install from this server.
if (command === "start" && !process.env.LATCHKEY_SDK_DIR) process.env.LATCHKEY_SDK_DIR = await ensureSdkPacked();
process.argv[2] = command;
await import("../packages/server/src/main.ts");
