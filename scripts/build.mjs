#!/usr/bin/env node
// `npm run build`: builds whatever is stale, each part only when its sources
// changed since its last build:
//   server     packages/server/dist   (scripts/lib/server-build.mjs)
//   dashboard  apps/dashboard/dist    (scripts/lib/dashboard-build.mjs)
//   sdk        packages/js/dist and packages/react/dist (tsup, each package's own `npm run build`)
// `node scripts/build.mjs server dashboard` builds only those. `npm start`
// runs this in a child process, so what the builds load (esbuild, Vite, tsx
// for the route list) is gone before the server starts.
import { spawnSync } from "node:child_process";
import { ensureDashboardBuilt } from "./lib/dashboard-build.mjs";
import { repoRoot } from "./lib/latchkey-server.mjs";
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
    // tsup keeps no fingerprint, so the SDK is built on every `npm run build`, as before; `npm start` does not ask for it.
    for (const workspace of ["@latchkey/js", "@latchkey/react"]) {
      const result = spawnSync("npm", ["run", "build", "-w", workspace], { cwd: repoRoot, stdio: "inherit" });
      if (result.status !== 0) throw new Error(`Building ${workspace} failed.`);
    }
    // The SDK's packed tarballs (served by the server) are made here, after its build.
  },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(part in PARTS));
if (unknown.length) {
  console.error(`Unknown part ${JSON.stringify(unknown[0])}. Use: node scripts/build.mjs [${Object.keys(PARTS).join("] [")}]`);
  process.exit(2);
}
for (const part of asked.length ? asked : Object.keys(PARTS)) await PARTS[part]();
