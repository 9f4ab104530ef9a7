/**
 * The built server (scripts/lib/server-build.mjs), as `npm start` runs it:
 * built by `node scripts/build.mjs server` into a directory of its own, started
 * as `node <dir>/main.js start` on a fresh data directory (PGlite) or a fresh
 * database (PostgreSQL), so its migrations, route manifest, e-mail worker and
 * prebuilt sandbox runtime are the ones in the build, not the sources.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRoutes } from "../src/route-table.ts";
import { freePort, SEED_KEYS } from "./harness.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const BUILD_MILLIS = 180_000;

let outDir: string;
let dataDir: string;
let server: ChildProcess | null = null;
let output = "";
let base: string;
let dropDatabase: (() => Promise<void>) | null = null;

/** A fresh database on the test PostgreSQL server (migrated by the built server itself); null on PGlite. */
async function freshDatabase(): Promise<string | null> {
  if (process.env.LATCHKEY_TEST_DB !== "postgres") return null;
  const name = `latchkey_built_${randomBytes(6).toString("hex")}`;
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  dropDatabase = async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The pids of `pid`'s descendants (Linux /proc). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean)) {
      found.push(Number(child), ...descendants(Number(child)));
    }
  }
  return found;
}

beforeAll(async () => {
  // Inside the package, as dist/ is, so the packages left out of the bundle resolve from its node_modules.
  const cache = join(ROOT, "packages", "server", "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, "latchkey-built-"));
  dataDir = mkdtempSync(join(tmpdir(), "latchkey-built-data-"));
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "server"], {
    cwd: ROOT,
    env: { ...process.env, LATCHKEY_SERVER_OUT: outDir },
    encoding: "utf8",
  });
  expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    LATCHKEY_DATA_DIR: join(dataDir, "data"),
    STACK_SERVER_SECRET: randomBytes(32).toString("hex"),
    STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: SEED_KEYS.publishableClientKey,
    STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: SEED_KEYS.secretServerKey,
    STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: SEED_KEYS.superSecretAdminKey,
  };
  delete env.DATABASE_URL;
  delete env.LATCHKEY_DASHBOARD_DIR;
  const databaseUrl = await freshDatabase();
  // DATABASE_URL is production mode: it needs the public address (the secret is set above), and
  // says it is serving in a log line at level info instead of the banner.
  if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, LATCHKEY_API_URL: base, LOG_LEVEL: "info" });
  // Run from outside the repository, with no TypeScript loader: only the build's own files and node_modules.
  server = spawn(process.execPath, [join(outDir, "main.js"), "start"], { cwd: dataDir, env, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    server!.once("exit", (code) => reject(new Error(`the built server exited (${code}):\n${output}`))),
  );
  // The banner (development) or the "serving" line (production) is printed once the server answers.
  const listening = new Promise<void>((done) =>
    server!.stdout!.on("data", () => (output.includes("API:") || output.includes('"msg":"Latchkey is serving"')) && done()),
  );
  await Promise.race([listening, exited]);
}, BUILD_MILLIS);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const gone = new Promise((done) => server!.once("exit", done));
    server.kill("SIGTERM");
    await gone;
  }
  await dropDatabase?.();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = {
  "x-stack-access-type": "admin",
  "x-stack-project-id": "internal",
  "x-stack-super-secret-admin-key": SEED_KEYS.superSecretAdminKey,
};

describe("the built server", () => {
  it("is plain JavaScript with its migrations, worker and sandbox runtime next to it", () => {
    for (const file of ["main.js", "worker.mjs", "workflow-worker.mjs", "sandbox-runtime.js", "migrations/0000_init.sql"]) {
      expect(existsSync(join(outDir, file)), file).toBe(true);
    }
  });

  it("answers /api/v1, and serves every route the sources declare (its manifest is complete)", async () => {
    const root = await fetch(`${base}/api/v1`);
    expect(root.status).toBe(200);
    const project = await fetch(`${base}/api/v1/projects/current`, {
      headers: {
        "x-stack-access-type": "client",
        "x-stack-project-id": "internal",
        "x-stack-publishable-client-key": SEED_KEYS.publishableClientKey,
      },
    });
    expect(project.status).toBe(200);
    const spec = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    // Every documented operation but the document itself (app.ts serves it, no route file).
    const served = Object.entries(spec.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((operation) => operation !== "GET /openapi.json");
    const declared = (await loadRoutes()).map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]\w*)/g, "{$1}")}`);
    expect(served.sort()).toEqual(declared.sort());
  });

  it("serves a capability's routes (CLI login) from the build", async () => {
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": SEED_KEYS.publishableClientKey,
      "content-type": "application/json",
    };
    const started = await fetch(`${base}/api/v1/auth/cli`, { method: "POST", headers: client, body: "{}" });
    expect(started.status).toBe(200);
    const { polling_code } = (await started.json()) as { polling_code: string };
    const poll = await fetch(`${base}/api/v1/auth/cli/poll`, { method: "POST", headers: client, body: JSON.stringify({ polling_code }) });
    expect(await poll.json()).toEqual({ status: "waiting" });
  });

  it("runs no other process while idle: no TypeScript loader, no bundler", () => {
    expect(descendants(server!.pid!)).toEqual([]);
  });

  it("renders an e-mail on first request, with the worker and runtime from the build", async () => {
    const res = await fetch(`${base}/api/v1/emails/render-email`, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({
        template_tsx_source: `export const subject = "Built"; export function EmailTemplate() { return <p>Rendered by the build</p>; }`,
        theme_id: false,
      }),
    });
    const body = (await res.json()) as { html: string; subject: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.html).toContain("Rendered by the build");
    expect(body.subject).toBe("Built");
  });

  it("runs a workflow in its own worker from the build, calling the API back", async () => {
    const json = { ...admin, "content-type": "application/json" };
    const created = await fetch(`${base}/api/v1/internal/workflows`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        display_name: "Built",
        trigger_event_types: ["user.created"],
        source: `export default async (event: { data: { id: string } }) => {
          console.log((await latchkey.api("GET", "/users/" + event.data.id)).status);
        };`,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const signUp = await fetch(`${base}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: {
        "x-stack-access-type": "client",
        "x-stack-project-id": "internal",
        "x-stack-publishable-client-key": SEED_KEYS.publishableClientKey,
        "content-type": "application/json",
      },
      body: JSON.stringify({ email: `built-${Date.now()}@example.com`, password: "a long enough password 1" }),
    });
    expect(signUp.status).toBe(200);
    // The server's own job runner runs it, in another process: watched, not waited for by time.
    const runs = async () =>
      ((await (await fetch(`${base}/api/v1/internal/workflows/${id}/runs`, { headers: admin })).json()) as { items: unknown[] }).items;
    await expect.poll(async () => (await runs())[0], { timeout: 30_000 }).toMatchObject({ status: "succeeded", output: "200\n" });
  });
});
