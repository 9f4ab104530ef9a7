/**
 * Start-up with real processes: every failure is one sentence naming the
 * variable or resource and its fix, exit code 1, before anything is changed;
 * production mode prints no key and logs JSON only; development's banner
 * stands alone.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, migratedDataDir, nonJsonLines, PROCESS_TIMEOUT, startProcess, tempDir } from "./process-fixtures.ts";

const SECRET = randomBytes(32).toString("hex");
const STACK_LINE = /^\s+at /m;
const dir = tempDir("latchkey-startup-");
afterAll(() => dir.remove());

/** A data directory no process may create when its start fails early. */
const untouched = () => join(dir.path, `untouched-${randomBytes(4).toString("hex")}`);

/** The one JSON line a production start that fails writes: level fatal (60). */
function fatalLine(output: string): string {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  expect(nonJsonLines(output)).toEqual([]);
  const fatal = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 60);
  expect(fatal).toHaveLength(1);
  return fatal[0]!.msg;
}

/** What needs no database runs once, with the PGlite project; the PostgreSQL project runs what does. */
const onPglite = process.env.LATCHKEY_TEST_DB === "pglite";
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

describe("a start that cannot go on", () => {
  it.runIf(onPglite).each(["abc", "70000", "0", "80.5"])(
    "PORT=%s: names PORT and the value, before the data directory is touched",
    async (value) => {
      const dataDir = untouched();
      const p = startProcess({ PORT: value, LATCHKEY_DATA_DIR: dataDir });
      expect(await p.exited).toBe(1);
      expect(p.stderr().trim()).toBe(
        `PORT must be a whole number from 1 to 65535, not "${value}": set PORT to a free port, or unset it for 8102.`,
      );
      expect(existsSync(dataDir)).toBe(false);
    },
    PROCESS_TIMEOUT,
  );

  it.runIf(onPglite)(
    "a port in use: names PORT and the port; the database is not opened and the lock is released",
    async () => {
      const blocker: Server = createServer();
      const port = await new Promise<number>((done) =>
        blocker.listen(0, "127.0.0.1", () => done((blocker.address() as { port: number }).port)),
      );
      try {
        const dataDir = untouched();
        const p = startProcess({ PORT: String(port), LATCHKEY_DATA_DIR: dataDir });
        expect(await p.exited).toBe(1);
        expect(p.stderr().trim()).toBe(`PORT ${port} is already in use on 127.0.0.1: stop what listens there, or set PORT to a free port.`);
        expect(p.output()).not.toMatch(STACK_LINE);
        const files = readdirSync(dataDir);
        expect(files).not.toContain("PG_VERSION");
        expect(
          JSON.parse(
            readFileSync(
              join(
                dataDir,
                files.find((f) => f.startsWith("latchkey.lock."))!,
              ),
              "utf8",
            ),
          ).released,
        ).toBe(true);
      } finally {
        blocker.close();
      }
    },
    PROCESS_TIMEOUT,
  );

  it.runIf(onPglite)(
    "DATABASE_URL on a closed port: names DATABASE_URL and host:port, never the password",
    async () => {
      const port = await freePort();
      const p = startProcess({
        DATABASE_URL: `postgres://latchkey:hunter2-password@127.0.0.1:${port}/latchkey`,
        STACK_SERVER_SECRET: SECRET,
        LATCHKEY_API_URL: "https://auth.example.com",
        PORT: String(await freePort()),
      });
      expect(await p.exited).toBe(1);
      expect(fatalLine(p.output())).toBe(
        `DATABASE_URL points at 127.0.0.1:${port}, where nothing accepts connections: start PostgreSQL there, or fix DATABASE_URL.`,
      );
      expect(p.output()).not.toContain("hunter2");
      expect(p.output()).not.toMatch(STACK_LINE);
    },
    PROCESS_TIMEOUT,
  );

  it.runIf(onPglite)(
    "production without STACK_SERVER_SECRET, with a short one, or without LATCHKEY_API_URL: names it, writes nothing",
    async () => {
      const dataDir = untouched();
      const production = { NODE_ENV: "production", LATCHKEY_DATA_DIR: dataDir, PORT: String(await freePort()) };
      const cases: [NodeJS.ProcessEnv, string][] = [
        [
          { LATCHKEY_API_URL: "https://auth.example.com" },
          "STACK_SERVER_SECRET is required in production (NODE_ENV=production): set it to the same random string of at least 32 characters on every replica, e.g. the output of `openssl rand -hex 32`.",
        ],
        [
          { LATCHKEY_API_URL: "https://auth.example.com", STACK_SERVER_SECRET: "x" },
          "STACK_SERVER_SECRET is 1 characters long, too short for production: set it to the same random string of at least 32 characters on every replica, e.g. the output of `openssl rand -hex 32`.",
        ],
        [
          { STACK_SERVER_SECRET: SECRET },
          "LATCHKEY_API_URL is required in production (NODE_ENV=production): set it to this server's public address, e.g. https://auth.example.com, the same on every replica.",
        ],
        // A replica of a shared database, started without its public address, would issue tokens the others refuse.
        [
          { DATABASE_URL: "postgres://127.0.0.1:1/x", STACK_SERVER_SECRET: SECRET },
          "LATCHKEY_API_URL is required in production (DATABASE_URL is set): set it to this server's public address, e.g. https://auth.example.com, the same on every replica.",
        ],
      ];
      for (const [env, sentence] of cases) {
        const p = startProcess({ ...production, ...env });
        expect(await p.exited).toBe(1);
        expect(fatalLine(p.output())).toBe(sentence);
      }
      const withDatabaseUrl = startProcess({ DATABASE_URL: "postgres://127.0.0.1:1/x", LATCHKEY_API_URL: "https://auth.example.com" });
      expect(await withDatabaseUrl.exited).toBe(1);
      expect(fatalLine(withDatabaseUrl.output())).toMatch(/^STACK_SERVER_SECRET is required in production \(DATABASE_URL is set\)/);
      expect(existsSync(dataDir)).toBe(false);
    },
    PROCESS_TIMEOUT,
  );

  it.runIf(onPostgres)(
    "a failing migration: names the migration, and the database stays as it was",
    async () => {
      const base = process.env.TEST_DATABASE_URL!;
      const name = `latchkey_startup_${randomBytes(6).toString("hex")}`;
      const admin = postgres(base, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        // A table of the first migration's name, as a half-restored database might have.
        await db.unsafe(`CREATE TABLE projects (id int)`);
        const p = startProcess({
          DATABASE_URL: url.toString(),
          STACK_SERVER_SECRET: SECRET,
          LATCHKEY_API_URL: "https://auth.example.com",
          PORT: String(await freePort()),
        });
        expect(await p.exited).toBe(1);
        expect(fatalLine(p.output())).toMatch(
          /^Migration 0000_init\.sql failed: relation "projects" already exists; this start applied no migration: fix the cause, then start again\.$/,
        );
        const tables = await db<{ name: string }[]>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`;
        expect(tables.map((t) => t.name)).toEqual(["projects"]);
      } finally {
        await db.end();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    PROCESS_TIMEOUT,
  );
});

describe("production mode", () => {
  it(
    "prints no key, says how to get them, and writes JSON lines only; SIGTERM stops it cleanly",
    async () => {
      const port = await freePort();
      const apiUrl = `http://127.0.0.1:${port}`;
      let env: NodeJS.ProcessEnv;
      let dropDatabase = async () => {};
      if (onPostgres) {
        const base = process.env.TEST_DATABASE_URL!;
        const name = `latchkey_production_${randomBytes(6).toString("hex")}`;
        const admin = postgres(base, { max: 1, onnotice: () => {} });
        await admin.unsafe(`CREATE DATABASE ${name}`);
        const url = new URL(base);
        url.pathname = `/${name}`;
        env = { DATABASE_URL: url.toString() };
        dropDatabase = async () => {
          await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        };
      } else {
        const dataDir = join(dir.path, "production-data");
        migratedDataDir(dataDir);
        env = { NODE_ENV: "production", LATCHKEY_DATA_DIR: dataDir };
      }
      const p = startProcess({ ...env, PORT: String(port), STACK_SERVER_SECRET: SECRET, LATCHKEY_API_URL: apiUrl });
      try {
        await p.waitFor("Production mode prints no keys");
        expect((await fetch(`${apiUrl}/api/v1`)).status).toBe(200);
        expect(await p.stop()).toBe(0);
        expect(p.stderr()).toBe("");
        expect(nonJsonLines(p.stdout())).toEqual([]);
        expect(p.output()).not.toMatch(/pck_|ssk_|sak_/);
        const messages = p
          .stdout()
          .trim()
          .split("\n")
          .map((line) => (JSON.parse(line) as { msg: string }).msg);
        expect(messages).toContain("Latchkey is serving");
        expect(messages.join("\n")).toContain("STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY");
      } finally {
        await p.stop();
        await dropDatabase();
      }
    },
    PROCESS_TIMEOUT,
  );
});

describe.runIf(onPglite)("development mode", () => {
  it(
    "prints the banner whole, with readable log lines and no JSON among them; a short secret is warned about",
    async () => {
      const dataDir = join(dir.path, "dev-data");
      migratedDataDir(dataDir);
      const port = await freePort();
      const p = startProcess({
        PORT: String(port),
        LATCHKEY_DATA_DIR: dataDir,
        LATCHKEY_LOG_FORMAT: "pretty",
        STACK_SERVER_SECRET: "short",
      });
      try {
        await p.waitFor(/super_secret_admin_key +sak_\S+\n/);
        const out = p.stdout();
        expect(out).toMatch(
          new RegExp(
            `\\n  API: +http://localhost:${port}/api/v1\\n  Database: +embedded PGlite in ${dataDir.replaceAll("/", "\\/")}\\n\\n  Internal project \\(id "internal"\\) keys:\\n    publishable_client_key +pck_\\S+\\n    secret_server_key +ssk_\\S+\\n    super_secret_admin_key +sak_\\S+\\n`,
          ),
        );
        expect(out.split("\n").filter((line) => line.startsWith("{"))).toEqual([]);
        expect(out).toMatch(/WARN.*STACK_SERVER_SECRET is shorter than 32 characters/);
      } finally {
        expect(await p.stop()).toBe(0);
      }
    },
    PROCESS_TIMEOUT,
  );
});
