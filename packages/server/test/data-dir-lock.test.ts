/** One process per PGlite data directory: the lock itself (process/data-dir-lock.ts). */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockDataDir } from "../src/process/data-dir-lock.ts";
import { StartupError } from "../src/process/startup-error.ts";
import { tempDir } from "./process-fixtures.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("latchkey-lock-");
});
afterEach(() => dir.remove());

const lockFiles = () => readdirSync(dir.path).filter((name) => name.startsWith("latchkey.lock."));
const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
const ourStartTime = () => {
  const stat = readFileSync(`/proc/${process.pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
};
const holder = (fields: Record<string, unknown>) =>
  JSON.stringify({ pid: process.pid, startTime: ourStartTime(), bootId: bootId(), host: hostname(), port: 8102, startedAt: "", ...fields });

// No database here: it runs once, with the PGlite project.
describe.runIf(process.env.LATCHKEY_TEST_DB === "pglite")("the data directory's lock", () => {
  it("refuses a second taker, naming the directory, the holder's pid and port; a release lets the next one in", () => {
    const first = lockDataDir(dir.path, 8102);
    expect(() => lockDataDir(dir.path, 8103)).toThrow(StartupError);
    expect(() => lockDataDir(dir.path, 8103)).toThrow(`(pid ${process.pid}, port 8102) is using the data directory ${dir.path}`);
    first.release();
    const second = lockDataDir(dir.path, 8103);
    expect(lockFiles()).toEqual(["latchkey.lock.2"]); // the older number is gone, the new one counts
    expect(JSON.parse(readFileSync(second.file, "utf8"))).toMatchObject({ pid: process.pid, port: 8103 });
    second.release();
    expect(JSON.parse(readFileSync(second.file, "utf8")).released).toBe(true);
  });

  it("takes over the lock of a process that is gone, creating the next number", () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(join(dir.path, "latchkey.lock.4"), holder({ pid: gone }));
    const lock = lockDataDir(dir.path, 1);
    expect(lock.file).toBe(join(dir.path, "latchkey.lock.5"));
    expect(lockFiles()).toEqual(["latchkey.lock.5"]);
  });

  it("takes over a lock whose pid now belongs to another process (another start time) or was from another boot", () => {
    writeFileSync(join(dir.path, "latchkey.lock.1"), holder({ startTime: ourStartTime() - 1 }));
    lockDataDir(dir.path, 1).release();
    writeFileSync(join(dir.path, "latchkey.lock.3"), holder({ bootId: "an-earlier-boot" }));
    expect(lockDataDir(dir.path, 1).file).toBe(join(dir.path, "latchkey.lock.4"));
  });

  it("refuses a lock held on another host, saying which file to delete if nothing runs there", () => {
    const file = join(dir.path, "latchkey.lock.1");
    writeFileSync(file, holder({ host: "another-host" }));
    expect(() => lockDataDir(dir.path, 1)).toThrow(`host another-host) is using the data directory ${dir.path}`);
    expect(() => lockDataDir(dir.path, 1)).toThrow(`if it does not, delete ${file}`);
  });

  it("refuses an unreadable lock file, naming it", () => {
    const file = join(dir.path, "latchkey.lock.1");
    writeFileSync(file, "not json");
    expect(() => lockDataDir(dir.path, 1)).toThrow(`The lock file ${file} of the data directory ${dir.path} is unreadable`);
  });

  it("gives the lock to exactly one of several processes trying at the same instant, also over a dead holder's lock", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(join(dir.path, "latchkey.lock.1"), holder({ pid: gone }));
    const racer = join(dirname(fileURLToPath(import.meta.url)), "lock-racer.ts");
    const racers = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ["--import", "tsx", racer, dir.path], {
        cwd: resolve(dirname(racer), "../../.."),
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const said = racers.map((child) => {
      let text = "";
      const lines: ((line: string) => void)[] = [];
      child.stdout!.on("data", (chunk: Buffer) => {
        text += chunk;
        while (text.includes("\n")) {
          const line = text.slice(0, text.indexOf("\n"));
          text = text.slice(text.indexOf("\n") + 1);
          lines.shift()?.(line);
        }
      });
      return () => new Promise<string>((done) => lines.push(done));
    });
    expect(await Promise.all(said.map((next) => next()))).toEqual(["ready", "ready", "ready", "ready"]);
    const answers = said.map((next) => next());
    for (const child of racers) child.stdin!.write("go\n");
    const results = await Promise.all(answers);
    expect(results.filter((r) => r === "won")).toHaveLength(1);
    expect(results.filter((r) => r.startsWith("refused: Another Latchkey process (pid "))).toHaveLength(3);
    const winner = racers[results.indexOf("won")]!;
    expect(lockFiles()).toEqual(["latchkey.lock.2"]);
    expect(JSON.parse(readFileSync(join(dir.path, "latchkey.lock.2"), "utf8")).pid).toBe(winner.pid);
    await Promise.all(
      racers.map((child) => {
        child.stdin!.end();
        return new Promise((done) => child.once("exit", done));
      }),
    );
    expect(existsSync(join(dir.path, "latchkey.lock.2"))).toBe(true);
  }, 120_000);
});
