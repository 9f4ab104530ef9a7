/**
 * Processes and other resources the benchmark owns, and their clean-up: the
 * server and hello children (spawn, wait until they answer, stop), free ports,
 * the temporary data directory and the PostgreSQL bench database (create and
 * drop). Clean-up runs always, also on errors and on SIGINT/SIGTERM, so a
 * failed or interrupted run leaves no server running and no database behind:
 * children are killed on exit, and the clean-ups registered in `cleanups` run
 * on a signal.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { CPU_PROF_DIR, ROOT, SEED, SERVER_ENTRY } from "./config.ts";

// ---------------------------------------------------------------------------
// Child processes and clean-up (always, also on errors and signals).

const children = new Set<ChildProcess>();
export const cleanups: (() => Promise<void>)[] = [];

export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping servers`);
    killAll();
    const timer = setTimeout(() => process.exit(130), 5000);
    void Promise.allSettled(cleanups.map((c) => c())).finally(() => {
      clearTimeout(timer);
      process.exit(130);
    });
  });
}

export interface Child {
  process: ChildProcess;
  /** The last lines of its output, for error reports. */
  tail(): string;
  /** Lines the server logged at level error (pino level ≥ 50). */
  errorLines(): string[];
}

export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(proc);
  proc.on("exit", () => children.delete(proc));
  const lines: string[] = [];
  const errors: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 60) lines.shift();
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level && Number(level) >= 50 && errors.length < 20) errors.push(line);
    }
  };
  proc.stdout!.on("data", collect);
  proc.stderr!.on("data", collect);
  return {
    process: proc,
    tail: () => `--- ${name} output (last lines) ---\n${lines.join("\n")}`,
    errorLines: () => errors,
  };
}

export async function stopChild(child: Child): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 8000);
  await exited;
  clearTimeout(timer);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers 2xx. `pollMillis` is the resolution of a
 * measured start: the footprint scenario polls every 10 ms (a starting server
 * answers 503 at once, so polling costs it little).
 */
export async function waitReady(url: string, child: Child, timeoutMillis = 90_000, pollMillis = 150): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`server exited before answering ${url}\n${child.tail()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMillis));
  }
  throw new Error(`no answer from ${url} within ${timeoutMillis} ms\n${child.tail()}`);
}

// ---------------------------------------------------------------------------
// Temporary data directory, bench database and the server's environment.

/** A fresh temporary directory for the server's data; the caller removes it. */
export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), "latchkey-bench-"));
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Creates a fresh database `latchkey_bench_<random>` on the server of
 * `databaseUrl` (the role needs CREATEDB). Returns its URL and a drop that
 * never throws (it reports a failure on stderr) and closes the admin connection.
 */
export async function createBenchDatabase(databaseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `latchkey_bench_${randomBytes(6).toString("hex")}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end({ timeout: 5 });
    throw error;
  }
  const drop = async () => {
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (error) {
      console.error(`could not drop database ${name}: ${error instanceof Error ? error.message : error}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
  };
  const u = new URL(databaseUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop };
}

/**
 * Spawns the real server on `port` with its data in `dataDir` (PGlite unless `databaseUrl`); does not wait for it.
 * `args` (node's arguments) replace the TypeScript entry, e.g. to run `scripts/start.mjs` as `npm start` does;
 * `serverSecret` is for a second start on the same data (by default each start gets a new one).
 */
export function startServer(
  label: string,
  port: number,
  dataDir: string,
  databaseUrl: string | null,
  { args, serverSecret = randomBytes(32).toString("hex") }: { args?: string[]; serverSecret?: string } = {},
): Child {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    // Production mode (DATABASE_URL) requires the public address and a secret of at least 32 characters.
    LATCHKEY_API_URL: `http://127.0.0.1:${port}`,
    LATCHKEY_DATA_DIR: join(dataDir, "data"),
    STACK_SERVER_SECRET: serverSecret,
    STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: SEED.publishableClientKey,
    STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: SEED.secretServerKey,
    STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: SEED.superSecretAdminKey,
    // The sign-up-webhooks scenario's receiver is in the bench process, on loopback.
    LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  if (args) return startChild(`latchkey (${label})`, args, env);
  const flags = ["--import", "tsx"];
  // One profile per thread (the tsx loader has its own); the biggest is the server's.
  if (CPU_PROF_DIR) flags.push("--cpu-prof", `--cpu-prof-dir=${join(CPU_PROF_DIR, label.toLowerCase())}`);
  return startChild(`latchkey (${label})`, [...flags, SERVER_ENTRY, "start"], env);
}
