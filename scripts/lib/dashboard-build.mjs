// The dashboard (apps/dashboard) is served by the server from its built
// files. `npm start` builds it here when its sources (or the SDK's, which it
// bundles) changed since the last build, so a fresh clone needs no extra
// command and later starts cost nothing.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sourcesFingerprint } from "./fingerprint.mjs";
import { repoRoot } from "./latchkey-server.mjs";

export const dashboardRoot = join(repoRoot, "apps", "dashboard");
/**
 * Where the build goes: apps/dashboard/dist for `npm start`; the test suite sets LATCHKEY_DASHBOARD_OUT
 * (vitest.config.ts) so its builds never replace the files a running `npm start` is serving.
 */
export const dashboardDist = process.env.LATCHKEY_DASHBOARD_OUT || join(dashboardRoot, "dist");
/** The fingerprint of the sources the build was made from (a dotfile: the server never serves those). */
const STAMP = join(dashboardDist, ".sources");

/** Everything the bundle is made of. */
const SOURCES = [
  "apps/dashboard/src",
  "apps/dashboard/index.html",
  "apps/dashboard/vite.config.ts",
  "apps/dashboard/package.json",
  "packages/js/src",
  "packages/react/src",
  "packages/shared/src",
  "package-lock.json",
];

function fingerprint() {
  return sourcesFingerprint(repoRoot, SOURCES);
}

/** True when dashboardDist holds a build of the current sources. */
export function dashboardBuildIsCurrent() {
  return existsSync(STAMP) && readFileSync(STAMP, "utf8") === fingerprint() && existsSync(join(dashboardDist, "index.html"));
}

/** Builds the dashboard into dashboardDist unless the build there is of the current sources; returns the directory. */
export async function ensureDashboardBuilt({ log = console.log } = {}) {
  if (dashboardBuildIsCurrent()) return dashboardDist;
  const wanted = fingerprint();
  log("  Building the dashboard (only when its sources changed)…");
  const { build } = await import("vite");
  // Vite bundles React's development build when NODE_ENV says so (vitest sets it to "test"): the served dashboard is
  // always the production build, whoever asks for it.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      root: dashboardRoot,
      configFile: join(dashboardRoot, "vite.config.ts"),
      logLevel: "warn",
      mode: "production",
      build: { outDir: dashboardDist, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(STAMP, wanted);
  return dashboardDist;
}
