#!/usr/bin/env node
// `npm run build`: builds whatever is stale, each part only when its sources
// changed since its last build:
//   server     packages/server/dist   (scripts/lib/server-build.mjs)
//   dashboard  apps/dashboard/dist    (scripts/lib/dashboard-build.mjs)
//   sdk        packages/js/dist, packages/react/dist and their packed tarballs (scripts/lib/sdk-build.mjs)
// `node scripts/build.mjs server dashboard` builds only those. `npm start`
// runs this in a child process, so what the builds load (esbuild, Vite, tsx
// for the route list) is gone before the server starts.
import { ensureDashboardBuilt } from "./lib/dashboard-build.mjs";
import { ensureSdkPacked } from "./lib/sdk-build.mjs";
import { buildServer, serverBuildIsCurrent } from "./lib/server-build.mjs";

const PARTS = {
  async server() {
    if (serverBuildIsCurrent()) return;
    console.log("  Building the server (only when its sources changed)…");
    await buildServer();
  },
  async dashboard() {
    await ensureDashboardBuilt();
  },
  async sdk() {
    // Builds packages/js and packages/react with their own tsup, then packs both, when their sources changed.
    await ensureSdkPacked();
  },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(part in PARTS));
if (unknown.length) {
  console.error(`Unknown part ${JSON.stringify(unknown[0])}. Use: node scripts/build.mjs [${Object.keys(PARTS).join("] [")}]`);
  process.exit(2);
}
for (const part of asked.length ? asked : Object.keys(PARTS)) await PARTS[part]();
