// Shared by scripts/demo.mjs and scripts/check-nextjs.mjs: run a Latchkey
// server as `npm start` does, and provision (or reconfigure) a project with a
// publishable key through the public API, as a project owner would (plain
// fetch, no SDK, so the scripts depend on nothing but the server).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServerBuilt } from "./server-build.mjs";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The API URL of a server started here on `port` (its LATCHKEY_API_URL default). */
export function localApiUrl(port) {
  return `http://localhost:${port}`;
}

/** A random server secret, long enough for production mode (at least 32 characters). */
export function newServerSecret() {
  return randomBytes(32).toString("hex");
}

/** A fresh publishable key for the internal project, to seed through the environment. */
export function newInternalPublishableClientKey() {
  return `pck_${randomBytes(24).toString("hex")}`;
}

/**
 * Starts the built server (`npm start`'s, built first if stale) on `port` with its data in
 * `dataDir`. The internal project's publishable key is seeded from
 * `internalPublishableClientKey`, so the data directory's dev-keys.json is left alone.
 * `stdio` is passed to spawn (default: the server's output goes to ours);
 * `env` adds to (and wins over) our own environment. With DATABASE_URL the
 * server runs in production mode, which needs STACK_SERVER_SECRET: when the
 * environment has none, `serverSecret` is used (keep it for the next start on
 * the same database: what one start encrypts, the next must decrypt).
 */
export function startLatchkeyServer({
  port,
  dataDir,
  internalPublishableClientKey,
  serverSecret = newServerSecret(),
  env = {},
  stdio = ["ignore", "inherit", "inherit"],
}) {
  const apiUrl = localApiUrl(port);
  const childEnv = {
    LATCHKEY_API_URL: apiUrl, // production mode (DATABASE_URL) requires it; one of ours wins
    ...process.env,
    PORT: String(port),
    LATCHKEY_DATA_DIR: dataDir,
    STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: internalPublishableClientKey,
    ...env,
  };
  if (childEnv.DATABASE_URL && !childEnv.STACK_SERVER_SECRET) childEnv.STACK_SERVER_SECRET = serverSecret;
  const child = spawn(process.execPath, [ensureServerBuilt(), "start"], {
    cwd: repoRoot,
    stdio,
    env: childEnv,
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    apiUrl,
    process: child,
    exited,

    /** Resolves once the API answers; throws if the server exits first or takes over a minute. */
    async waitUntilReady() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (exited()) throw new Error("The server did not start.");
        try {
          const res = await fetch(`${apiUrl}/api/v1`);
          if (res.ok) return;
        } catch {
          // Not listening yet.
        }
        await new Promise((done) => setTimeout(done, 250));
      }
      throw new Error(`The Latchkey server did not answer at ${apiUrl}/api/v1 within a minute.`);
    },

    /** Stops the server and waits until it has closed its database and exited (see stopChild). */
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then waits for the child to exit; one still running after 10 s gets SIGKILL, so none outlives us. */
export async function stopChild(child) {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  if (exited()) return;
  const gone = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await gone;
  clearTimeout(timer);
}

/** A call to the Latchkey API; throws on any error status. */
export async function api(apiUrl, path, { method = "GET", headers = {}, body } = {}) {
  const res = await fetch(`${apiUrl}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api/v1${path} failed (${res.status}): ${text}`);
  return text ? JSON.parse(text) : null;
}

/** False when the project or its key is unknown (e.g. the server's data was deleted). */
export async function projectStillWorks(apiUrl, { projectId, publishableClientKey }) {
  if (!projectId || !publishableClientKey) return false;
  const res = await fetch(`${apiUrl}/api/v1/projects/current`, {
    headers: {
      "x-stack-access-type": "client",
      "x-stack-project-id": projectId,
      "x-stack-publishable-client-key": publishableClientKey,
    },
  });
  return res.ok;
}

/** The owner's admin headers for `projectId`, after signing in to the internal project with their password. */
async function ownerAdminHeaders(apiUrl, { internalPublishableClientKey, owner, projectId }) {
  const tokens = await api(apiUrl, "/auth/password/sign-in", {
    method: "POST",
    headers: {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": internalPublishableClientKey,
    },
    body: owner,
  });
  return { "x-stack-access-type": "admin", "x-stack-project-id": projectId, "x-stack-admin-access-token": tokens.access_token };
}

/**
 * What an owner does in the dashboard: reads the project's admin config,
 * and saves `change(config)` (a config patch, or null for nothing to save).
 * Returns the project's admin view as it now is.
 */
export async function updateProjectConfig(apiUrl, { internalPublishableClientKey, owner, projectId }, change) {
  const headers = await ownerAdminHeaders(apiUrl, { internalPublishableClientKey, owner, projectId });
  const project = await api(apiUrl, "/internal/projects/current", { headers });
  const patch = change(project.config);
  if (!patch) return project;
  return api(apiUrl, "/internal/projects/current", { method: "PATCH", headers, body: { config: patch } });
}

/**
 * What a new project owner does: sign up to the internal project, create a
 * project (with `config` settings), create its publishable key. Returns the owner's credentials, the
 * project's id and its publishable client key.
 */
export async function provisionProject(
  apiUrl,
  { internalPublishableClientKey, displayName, keyDescription, ownerEmailPrefix, config = {} },
) {
  const internal = {
    "x-stack-access-type": "client",
    "x-stack-project-id": "internal",
    "x-stack-publishable-client-key": internalPublishableClientKey,
  };
  const owner = { email: `${ownerEmailPrefix}-${randomBytes(4).toString("hex")}@example.com`, password: randomBytes(16).toString("hex") };
  const tokens = await api(apiUrl, "/auth/password/sign-up", { method: "POST", headers: internal, body: owner });
  const asOwner = { ...internal, "x-stack-access-token": tokens.access_token };
  const me = await api(apiUrl, "/users/me", { headers: asOwner });
  const project = await api(apiUrl, "/internal/projects", {
    method: "POST",
    headers: asOwner,
    body: { display_name: displayName, owner_team_id: me.selected_team_id, config },
  });
  const keys = await api(apiUrl, "/internal/api-keys", {
    method: "POST",
    headers: { "x-stack-access-type": "admin", "x-stack-project-id": project.id, "x-stack-admin-access-token": tokens.access_token },
    body: {
      description: keyDescription,
      expires_at_millis: Date.now() + 100 * 365 * 24 * 3600 * 1000,
      has_publishable_client_key: true,
      has_secret_server_key: false,
      has_super_secret_admin_key: false,
    },
  });
  return { owner, projectId: project.id, publishableClientKey: keys.publishable_client_key };
}
