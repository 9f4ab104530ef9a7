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
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.LATCHKEY_PORT ?? 8102);
const apiUrl = `http://localhost:${port}`;
const stateFile = join(root, ".latchkey", "demo.json");

// The internal project's publishable key: our own, seeded through the
// environment, so the demo leaves `npm start`'s .latchkey/dev-keys.json alone.
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
state.internalPublishableClientKey ??= `pck_${randomBytes(24).toString("hex")}`;
saveState();

const server = spawn(process.execPath, ["--import", "tsx", "packages/server/src/main.ts", "start"], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    LATCHKEY_DATA_DIR: join(root, ".latchkey", "demo-data"),
    STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: state.internalPublishableClientKey,
  },
});
let vite = null;
let stopping = false;
server.on("exit", (code, signal) => {
  if (stopping) return;
  console.error(`The Latchkey server stopped (${signal ?? `exit code ${code}`}).`);
  void stop(1);
});
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

try {
  await waitForServer();
  if (!(await projectStillWorks())) await provisionDemoProject();
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
  console.log(`\n  Demo: ${vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`}\n  (Ctrl-C stops the demo and the server.)\n`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await vite?.close().catch(() => {});
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((done) => {
      server.once("exit", done);
      setTimeout(done, 5000).unref();
    });
  }
  process.exit(code);
}

function saveState() {
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

async function waitForServer() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (stopping) throw new Error("The server did not start.");
    try {
      const res = await fetch(`${apiUrl}/api/v1`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`The Latchkey server did not answer at ${apiUrl}/api/v1 within a minute.`);
}

/** A call to the Latchkey API; throws on any error status. */
async function api(path, { method = "GET", headers = {}, body } = {}) {
  const res = await fetch(`${apiUrl}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api/v1${path} failed (${res.status}): ${text}`);
  return text ? JSON.parse(text) : null;
}

/** False when there is no demo project yet, or it is gone (e.g. .latchkey/demo-data was deleted). */
async function projectStillWorks() {
  if (!state.projectId || !state.publishableClientKey) return false;
  const res = await fetch(`${apiUrl}/api/v1/projects/current`, {
    headers: {
      "x-stack-access-type": "client",
      "x-stack-project-id": state.projectId,
      "x-stack-publishable-client-key": state.publishableClientKey,
    },
  });
  return res.ok;
}

/** What a new project owner does: sign up, create a project, create its publishable key. */
async function provisionDemoProject() {
  console.log("Creating the Demo project…");
  const internal = {
    "x-stack-access-type": "client",
    "x-stack-project-id": "internal",
    "x-stack-publishable-client-key": state.internalPublishableClientKey,
  };
  const owner = { email: `demo-owner-${randomBytes(4).toString("hex")}@example.com`, password: randomBytes(16).toString("hex") };
  const tokens = await api("/auth/password/sign-up", { method: "POST", headers: internal, body: owner });
  const asOwner = { ...internal, "x-stack-access-token": tokens.access_token };
  const me = await api("/users/me", { headers: asOwner });
  const project = await api("/internal/projects", {
    method: "POST",
    headers: asOwner,
    body: { display_name: "Demo", owner_team_id: me.selected_team_id },
  });
  const keys = await api("/internal/api-keys", {
    method: "POST",
    headers: { "x-stack-access-type": "admin", "x-stack-project-id": project.id, "x-stack-admin-access-token": tokens.access_token },
    body: {
      description: "Demo app (scripts/demo.mjs)",
      expires_at_millis: Date.now() + 100 * 365 * 24 * 3600 * 1000,
      has_publishable_client_key: true,
      has_secret_server_key: false,
      has_super_secret_admin_key: false,
    },
  });
  Object.assign(state, { owner, projectId: project.id, publishableClientKey: keys.publishable_client_key });
  saveState();
}
