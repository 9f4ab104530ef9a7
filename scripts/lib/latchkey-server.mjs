// Shared by scripts/demo.mjs and scripts/check-nextjs.mjs: run a Latchkey
// server as `npm start` does, and provision a project with a publishable key
// through the public API, as a project owner would (plain fetch, no SDK, so
// the scripts depend on nothing but the server).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A fresh publishable key for the internal project, to seed through the environment. */
export function newInternalPublishableClientKey() {
  return `pck_${randomBytes(24).toString("hex")}`;
}

/**
 * Starts the server (`npm start`'s command) on `port` with its data in
 * `dataDir`. The internal project's publishable key is seeded from
 * `internalPublishableClientKey`, so .latchkey/dev-keys.json is left alone.
 * `stdio` is passed to spawn (default: the server's output goes to ours).
 */
export function startLatchkeyServer({ port, dataDir, internalPublishableClientKey, stdio = ["ignore", "inherit", "inherit"] }) {
  const child = spawn(process.execPath, ["--import", "tsx", "packages/server/src/main.ts", "start"], {
    cwd: repoRoot,
    stdio,
    env: {
      ...process.env,
      PORT: String(port),
      LATCHKEY_DATA_DIR: dataDir,
      STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: internalPublishableClientKey,
    },
  });
  const apiUrl = `http://localhost:${port}`;
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

    /** SIGTERM, then waits (up to 5 s) for the server to close its database and exit. */
    async stop() {
      if (exited()) return;
      child.kill("SIGTERM");
      await new Promise((done) => {
        child.once("exit", done);
        setTimeout(done, 5000).unref();
      });
    },
  };
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
