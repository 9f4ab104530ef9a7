/**
 * One process per PGlite data directory. Two processes on the same files each
 * see only their own writes and corrupt the indexes, and PGlite
 * takes no lock of its own, so the server takes one before opening the database.
 *
 * The lock is a file `latchkey.lock.<n>` in the data directory naming its
 * holder (pid, the process's start time, host, boot, port). Only the file with
 * the highest n counts. To take the lock, a process reads the highest one: when
 * its holder is alive, the start is refused; otherwise (no file, released, or
 * its process gone) it creates n + 1. Creating is atomic (a hard link of a fully
 * written file fails if the name exists), so of processes starting at the same
 * instant exactly one gets n + 1, and a file, once there, always has its whole
 * content. Nothing ever deletes or reuses the highest number (release rewrites
 * the file as released), which is what makes taking over a dead holder's lock
 * safe without a second lock: two processes that both saw n dead race for the
 * same n + 1. Older numbers are deleted by the holder; a slow process that
 * re-creates one of those finds a higher number when it looks again, and backs off.
 *
 * A pid alone could be a new process that got a dead holder's number, so the
 * process's start time (Linux: /proc/<pid>/stat) and the boot it ran in must match too.
 * `proper-lockfile` was not used: it judges a lock stale by its age (a killed
 * holder blocks starts for a while) and records no holder to name.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { StartupError } from "./startup-error.ts";
import { systemClock } from "../lib/clock.ts";

interface Holder {
  pid: number;
  /** Clock ticks after boot at which the process started (field 22 of /proc/<pid>/stat); null where /proc is missing. */
  startTime: number | null;
  bootId: string | null;
  host: string;
  port: number | null;
  startedAt: string;
  released?: true;
}

export interface DataDirLock {
  /** The lock file this process holds. */
  file: string;
  /** Marks the lock released; safe to call more than once. */
  release(): void;
}

const PREFIX = "latchkey.lock.";

/**
 * Takes the data directory's lock for this process (creating the directory),
 * or throws a StartupError naming the directory and the process that holds it.
 * `port` is recorded so that message can name it.
 */
export function lockDataDir(dataDir: string, port: number | null): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const me = currentHolder(port);
  // Each round either takes the lock, refuses, or has seen another process change the directory.
  for (let round = 0; round < 20; round++) {
    const top = highestGeneration(dataDir);
    if (top > 0) {
      const holder = readHolder(dataDir, top);
      if (holder === "gone") continue; // deleted while we looked: someone took a higher one
      if (holder === "unreadable") throw unreadableLock(dataDir, join(dataDir, `${PREFIX}${top}`));
      if (isAlive(holder)) throw heldBy(dataDir, holder, join(dataDir, `${PREFIX}${top}`));
    }
    const mine = top + 1;
    const file = join(dataDir, `${PREFIX}${mine}`);
    if (!createWith(file, me)) continue; // another process took mine first
    if (highestGeneration(dataDir) > mine) {
      // We re-created a number older holders had already left behind.
      unlinkQuietly(file);
      continue;
    }
    removeOlder(dataDir, mine);
    let released = false;
    return {
      file,
      release() {
        if (released) return;
        released = true;
        replaceWith(file, { ...me, released: true });
      },
    };
  }
  throw new StartupError(`Could not take the lock of the data directory ${dataDir}: other processes keep changing it; start again.`);
}

function heldBy(dataDir: string, holder: Holder, file: string): StartupError {
  const who = [
    `pid ${holder.pid}`,
    ...(holder.port ? [`port ${holder.port}`] : []),
    ...(holder.host !== hostname() ? [`host ${holder.host}`] : []),
  ];
  const unknown = holder.host !== hostname() ? ` (this host cannot tell whether it still runs: if it does not, delete ${file})` : "";
  return new StartupError(
    `Another Latchkey process (${who.join(", ")}) is using the data directory ${dataDir}${unknown}: stop it first, or give this one its own LATCHKEY_DATA_DIR.`,
  );
}

function unreadableLock(dataDir: string, file: string): StartupError {
  return new StartupError(
    `The lock file ${file} of the data directory ${dataDir} is unreadable: if no Latchkey process uses this directory, delete that file and start again.`,
  );
}

function currentHolder(port: number | null): Holder {
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    bootId: bootId(),
    host: hostname(),
    port,
    startedAt: systemClock.date().toISOString(),
  };
}

/** Another host's process cannot be checked from here: it counts as alive. */
function isAlive(holder: Holder): boolean {
  if (holder.released) return false;
  if (holder.host !== hostname()) return true;
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const startTime = processStartTime(holder.pid);
  return holder.startTime === null || startTime === null || startTime === holder.startTime;
}

function processStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]); // field 22 overall
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

function generations(dataDir: string): number[] {
  return readdirSync(dataDir)
    .filter((name) => name.startsWith(PREFIX) && /^\d+$/.test(name.slice(PREFIX.length)))
    .map((name) => Number(name.slice(PREFIX.length)));
}

function highestGeneration(dataDir: string): number {
  return Math.max(0, ...generations(dataDir));
}

function readHolder(dataDir: string, generation: number): Holder | "gone" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(join(dataDir, `${PREFIX}${generation}`), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Holder;
    return Number.isInteger(holder.pid) && typeof holder.host === "string" ? holder : "unreadable";
  } catch {
    return "unreadable";
  }
}

/** Creates `file` with `holder` as its whole content, or returns false if it exists. */
function createWith(file: string, holder: Holder): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`);
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkQuietly(draft);
  }
}

function replaceWith(file: string, holder: Holder): void {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(draft, `${JSON.stringify(holder)}\n`);
    renameSync(draft, file);
  } catch {
    // The directory may be gone (deleted under us); nothing then holds the lock anyway.
    unlinkQuietly(draft);
  }
}

/** Older lock files, and drafts a killed process left behind (they hold no lock). */
function removeOlder(dataDir: string, mine: number): void {
  for (const name of readdirSync(dataDir)) {
    if (!name.startsWith(PREFIX)) continue;
    const rest = name.slice(PREFIX.length);
    if (/^\d+$/.test(rest) ? Number(rest) < mine : rest.endsWith(".tmp") && !draftOfLiveProcess(rest)) unlinkQuietly(join(dataDir, name));
  }
}

/** Drafts are named `<n>.<pid>.<random>.tmp`; a live process may be just about to link its own. */
function draftOfLiveProcess(rest: string): boolean {
  const pid = Number(rest.split(".")[1]);
  if (!Number.isInteger(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
