#!/usr/bin/env node
// `npm run demo`: a Latchkey server plus the React demo app (apps/demo).
//
//   1. starts the server as `npm start` does (port LATCHKEY_PORT or 8102,
//      data in .latchkey/demo-data);
//   2. on the first run, creates a "Demo" project through the public API, as
//      a project owner would, and keeps its id and key in .latchkey/demo.json;
//   3. starts Vite for apps/demo (port DEMO_PORT or 5173) pointed at both.
//
// Ctrl-C stops both.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createServer } from "vite";
import {
  newInternalPublishableClientKey,
  projectStillWorks,
  provisionProject,
  repoRoot as root,
  startLatchkeyServer,
} from "./lib/latchkey-server.mjs";

const port = Number(process.env.LATCHKEY_PORT ?? 8102);
const stateFile = join(root, ".latchkey", "demo.json");

// The internal project's publishable key: our own, seeded through the
// environment, so the demo leaves `npm start`'s .latchkey/dev-keys.json alone.
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
state.internalPublishableClientKey ??= newInternalPublishableClientKey();
saveState();

const server = startLatchkeyServer({
  port,
  dataDir: join(root, ".latchkey", "demo-data"),
  internalPublishableClientKey: state.internalPublishableClientKey,
});
const { apiUrl } = server;
let vite = null;
let stopping = false;
server.process.on("exit", (code, signal) => {
  if (stopping) return;
  console.error(`The Latchkey server stopped (${signal ?? `exit code ${code}`}).`);
  void stop(1);
});
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

try {
  await server.waitUntilReady();
  if (!(await projectStillWorks(apiUrl, state))) {
    console.log("Creating the Demo project…");
    const project = await provisionProject(apiUrl, {
      internalPublishableClientKey: state.internalPublishableClientKey,
      displayName: "Demo",
      keyDescription: "Demo app (scripts/demo.mjs)",
      ownerEmailPrefix: "demo-owner",
      // Sign-in codes too; without an SMTP server they are printed in the server's log (the dev outbox).
      config: { magic_link_enabled: true },
    });
    Object.assign(state, project);
    saveState();
  }
  // Vite hands its own process's VITE_* variables to the app (import.meta.env).
  Object.assign(process.env, {
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: state.projectId,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: state.publishableClientKey,
  });
  vite = await createServer({
    root: join(root, "apps", "demo"),
    configFile: join(root, "apps", "demo", "vite.config.ts"),
    server: { port: Number(process.env.DEMO_PORT ?? 5173) },
  });
  await vite.listen();
  console.log(
    `\n  Demo: ${vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`}\n  (Ctrl-C stops the demo and the server.)\n`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await vite?.close().catch(() => {});
  await server.stop();
  process.exit(code);
}

function saveState() {
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
