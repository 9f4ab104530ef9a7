/**
 * Real server processes for the tests of the process itself (start-up checks,
 * the data directory's lock, production mode): `node --import tsx
 * packages/server/src/main.ts start` with an environment of the test's making,
 * on a free port and a temporary data directory.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { expect, inject } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const MAIN = "packages/server/src/main.ts";

/** A PGlite start on a fresh directory spends seconds in initdb; on a busy 2-core machine, much longer. */
export const PROCESS_TIMEOUT = 240_000;

export interface ServerProcess {
  child: ChildProcess;
  /** stdout and stderr so far, in order. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves when the output contains `text`; rejects if the process exits first. */
  waitFor(text: string | RegExp): Promise<void>;
  /** SIGTERM, then the exit. */
  stop(): Promise<number | null>;
}

/** The variables the server reads are left out of ours, so each test says exactly what the process gets. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(STACK_|LATCHKEY_|DATABASE_URL$|PORT$|HOST$|NODE_ENV$|LOG_LEVEL$|TEST_DATABASE_URL$)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/**
 * `entry` another script than main.ts (with stdin a pipe the test writes to):
 * ./server-racer.ts runs main.ts when told.
 */
export function startProcess(env: NodeJS.ProcessEnv, command = "start", entry?: string): ServerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", entry ?? MAIN, command], {
    cwd: ROOT,
    // Without syncs unless a test asks: a kill -9 loses nothing either way (only a power loss would), and waiting
    // for the disk at every commit of every start made the process tests minutes slower.
    env: { ...baseEnv(), HOST: "127.0.0.1", LATCHKEY_PGLITE_FSYNC: "off", ...env },
    stdio: [entry ? "pipe" : "ignore", "pipe", "pipe"],
  });
  let all = "";
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk;
    all += chunk;
    for (const check of waiters) check();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk;
    all += chunk;
    for (const check of waiters) check();
  });
  return {
    child,
    output: () => all,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(text) {
      const seen = () => (typeof text === "string" ? all.includes(text) : text.test(all));
      return new Promise((done, fail) => {
        if (seen()) return done();
        const check = () => {
          if (!seen()) return;
          waiters.delete(check);
          done();
        };
        waiters.add(check);
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          // The last output may arrive with the exit.
          if (seen()) done();
          else fail(new Error(`the process exited (${code}) before printing ${String(text)}:\n${all}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A temporary directory, removed by `remove()`. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Fills `dataDir` with the run's migrated PGlite database (./database-template.ts),
 * so a process starts in seconds instead of running initdb and every migration.
 * Without the template (the PostgreSQL project), the process makes the database itself.
 */
export function migratedDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const template = inject("pgliteTemplate");
  if (!template) return;
  const untar = spawnSync("tar", ["-xf", template, "-C", dataDir]);
  if (untar.status !== 0) throw new Error(`could not unpack ${template}: ${untar.stderr}`);
}

/** On PostgreSQL (TEST_DATABASE_URL), a database of its own made from the run's migrated template; dropped by `drop()`. */
export async function postgresDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const template = inject("postgresTemplate");
  await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A password sign-up to the internal project of the process at `apiUrl`; fails the test unless it succeeds. */
export async function signUpToInternal(apiUrl: string, publishableClientKey: string, email: string) {
  const res = await fetch(`${apiUrl}/api/v1/auth/password/sign-up`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": publishableClientKey,
    },
    body: JSON.stringify({ email, password: "a long enough password" }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string };
}

/** Lines of stdout that are not JSON objects. */
export function nonJsonLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
}
