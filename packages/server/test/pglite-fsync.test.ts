/**
 * The embedded database makes each commit durable unless
 * LATCHKEY_PGLITE_FSYNC=off: PostgreSQL's fsync is on, and its syncs reach the
 * host's disk (PGlite's own file system would drop them), seen as fsync
 * system calls of the process under strace. A new data directory copied from
 * the built server's template is written without syncs; PostgreSQL syncs the
 * whole directory when it starts on it (the template was dumped from a running
 * database, so the start is a crash recovery), before any commit is answered.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { openDatabase } from "../src/process/open-database.ts";
import { baseEnv, migratedDataDir, PROCESS_TIMEOUT, tempDir } from "./process-fixtures.ts";

const env = { STACK_SERVER_SECRET: "x".repeat(32) };

describe("LATCHKEY_PGLITE_FSYNC", () => {
  it("is on unless set to off", () => {
    expect(configFromEnv(env).pgliteFsync).toBe(true);
    expect(configFromEnv({ ...env, LATCHKEY_PGLITE_FSYNC: "on" }).pgliteFsync).toBe(true);
    expect(configFromEnv({ ...env, LATCHKEY_PGLITE_FSYNC: "off" }).pgliteFsync).toBe(false);
  });

  it.each(["false", "0", "OFF", "no", "sometimes"])("refuses %j, naming the variable", (value) => {
    expect(() => configFromEnv({ ...env, LATCHKEY_PGLITE_FSYNC: value })).toThrow(
      `LATCHKEY_PGLITE_FSYNC must be on or off (got ${JSON.stringify(value)}).`,
    );
  });
});

/** strace runs here and may trace a child (some containers forbid ptrace). */
const canTrace = spawnSync("strace", ["-f", "-o", "/dev/null", "true"]).status === 0;

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "pglite")("the embedded database in a data directory", () => {
  const dir = tempDir("latchkey-fsync-");
  afterAll(() => dir.remove());

  it(
    "runs with fsync on (and the shared_buffers asked for) as the server opens it; off when LATCHKEY_PGLITE_FSYNC=off",
    async () => {
      for (const [fsync, shown] of [
        ["on", "on"],
        ["off", "off"],
      ] as const) {
        const dataDir = join(dir.path, `settings-${fsync}`);
        migratedDataDir(dataDir);
        const config = configFromEnv({
          ...env,
          LATCHKEY_DATA_DIR: dataDir,
          LATCHKEY_PGLITE_FSYNC: fsync,
          LATCHKEY_PGLITE_SHARED_BUFFERS: "24MB",
        });
        const database = await openDatabase(config);
        try {
          const [row] = await database.rawTransaction((run) =>
            run("SELECT current_setting('fsync') AS fsync, current_setting('shared_buffers') AS shared_buffers"),
          );
          expect(row).toEqual({ fsync: shown, shared_buffers: "24MB" });
        } finally {
          await database.close();
        }
      }
    },
    PROCESS_TIMEOUT,
  );

  /** The fsync system calls of a process opening the database in a new directory (a copy of `template` if given), and the paths they synced. */
  const tracedSyncs = (name: string, fsync: "on" | "off", commits: number, template?: string): string[] => {
    const dataDir = join(dir.path, name);
    if (!template) migratedDataDir(dataDir);
    const trace = join(dir.path, `strace-${name}`);
    const child = spawnSync(
      "strace",
      [
        ...["-f", "-y", "-e", "trace=fsync,fdatasync", "-o", trace],
        ...[process.execPath, "--import", "tsx", "packages/server/test/pglite-fsync-child.ts", String(commits)],
        ...(template ? [template] : []),
      ],
      { env: { ...baseEnv(), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_PGLITE_FSYNC: fsync }, encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const synced = [...readFileSync(trace, "utf8").matchAll(/\b(?:fsync|fdatasync)\(\d+<([^>]*)>\)\s+= 0/g)];
    return synced.map((m) => m[1]!.replace(`${dataDir}`, "$DATA"));
  };

  it.skipIf(!canTrace)(
    "syncs the disk at every commit with fsync on, and never with it off",
    () => {
      const commits = 20;
      const walSyncs = (fsync: "on" | "off") =>
        tracedSyncs(`traced-${fsync}`, fsync, commits).filter((path) => path.startsWith("$DATA/pg_wal/"));
      expect(walSyncs("on").length).toBeGreaterThanOrEqual(commits);
      expect(walSyncs("off")).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it.skipIf(!canTrace || !inject("pgliteTemplate"))(
    "a new directory's copy of the template is synced at the start, directories and PG_VERSION too; not with fsync off",
    () => {
      const template = join(dir.path, "template.tar.gz");
      writeFileSync(template, gzipSync(readFileSync(inject("pgliteTemplate")!)));
      const synced = tracedSyncs("seeded-on", "on", 0, template);
      expect(synced).toEqual(expect.arrayContaining(["$DATA", "$DATA/global", "$DATA/global/pg_control", "$DATA/PG_VERSION"]));
      expect(tracedSyncs("seeded-off", "off", 0, template)).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );
});
