/**
 * The "footprint" scenario: what `npm start` costs before it serves anything.
 * For each database it runs exactly what `npm start` runs (`node
 * scripts/start.mjs start`, the dashboard on), after building what is stale
 * in a child process first, so no build is timed:
 * - fresh start: from spawn until `GET /api/v1` answers 200, on an empty data
 *   directory (PGlite: initdb and every migration) or a new database;
 * - warm start: the same again on the data left by the first;
 * - idle RSS: the resident memory of the whole process tree (the server and
 *   every descendant, e.g. an esbuild service), summed, after the warm start
 *   has sat idle for IDLE_MILLIS; and the command of every process in the tree,
 *   so a compiler or bundler still running shows.
 * BENCH_FOOTPRINT_ARGS replaces the node arguments (default "scripts/start.mjs
 * start"), to measure another way of starting, e.g. "--import tsx
 * packages/server/src/main.ts start".
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { ROOT } from "./config.ts";
import { createBenchDatabase, freePort, makeDataDir, removeDataDir, startServer, stopChild, waitReady } from "./processes.ts";

/** How long the server sits idle before its memory is read: long enough for start-up garbage to be collected. */
const IDLE_MILLIS = 10_000;
/** How often a starting server is asked whether it is ready: the resolution of the start times. */
const POLL_MILLIS = 10;
const ARGS = (process.env.BENCH_FOOTPRINT_ARGS ?? "scripts/start.mjs start").split(" ").filter(Boolean);

export interface Footprint {
  label: string;
  /** Medians of the runs below. */
  freshMillis: number;
  warmMillis: number;
  freshRuns: number[];
  warmRuns: number[];
  idleRssMb: number;
  processes: string[];
}

/** The pid and its descendants, from /proc (Linux). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the 2nd field after the parenthesised command, which may contain spaces.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter(Boolean)
      .join(" ")
      .replace(ROOT + "/", "");
  } catch {
    return "?";
  }
}

/** Builds what `npm start` would build if stale (server, dashboard), so the starts below time no build. */
export function buildFirst(): void {
  process.stdout.write("[footprint] building what is stale…\n");
  const result = spawnSync(process.execPath, ["scripts/build.mjs", "server", "dashboard"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

async function timedStart(label: string, dataDir: string, databaseUrl: string | null, serverSecret: string) {
  const port = await freePort();
  const started = performance.now();
  const child = startServer(label, port, dataDir, databaseUrl, { args: ARGS, serverSecret });
  await waitReady(`http://127.0.0.1:${port}/api/v1`, child, undefined, POLL_MILLIS);
  return { child, millis: performance.now() - started };
}

/**
 * Start times on this machine move by hundreds of milliseconds between runs
 * of the same code (the disk, other work), so each figure is the median of
 * ROUNDS starts: fresh ones on new data directories (or databases), and
 * warm ones on the data the first left.
 */
const ROUNDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function footprint(label: string, databaseUrl: string | null): Promise<Footprint> {
  const dataDirs: string[] = [];
  const databases: { url: string; drop(): Promise<void> }[] = [];
  const serverSecret = randomBytes(32).toString("hex");
  try {
    const freshMillis: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = makeDataDir();
      dataDirs.push(dataDir);
      const database = databaseUrl ? await createBenchDatabase(databaseUrl) : null;
      if (database) databases.push(database);
      process.stdout.write(`[footprint ${label}] fresh start ${round + 1}/${ROUNDS}…\n`);
      const fresh = await timedStart(label, dataDir, database?.url ?? null, serverSecret);
      freshMillis.push(fresh.millis);
      await stopChild(fresh.child);
    }
    const warmMillis: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      process.stdout.write(`[footprint ${label}] warm start ${round + 1}/${ROUNDS}…\n`);
      const warm = await timedStart(label, dataDirs[0]!, databases[0]?.url ?? null, serverSecret);
      warmMillis.push(warm.millis);
      if (round < ROUNDS - 1) {
        await stopChild(warm.child);
        continue;
      }
      try {
        await new Promise((done) => setTimeout(done, IDLE_MILLIS));
        const tree = processTree(warm.child.process.pid!);
        const idleRssMb = tree.reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;
        return {
          label,
          freshMillis: median(freshMillis),
          warmMillis: median(warmMillis),
          freshRuns: freshMillis,
          warmRuns: warmMillis,
          idleRssMb,
          processes: tree.map(commandOf),
        };
      } finally {
        await stopChild(warm.child);
      }
    }
    throw new Error("unreachable: the last warm start returns");
  } finally {
    for (const database of databases) await database.drop();
    for (const dataDir of dataDirs) removeDataDir(dataDir);
  }
}

export function footprintTable(rows: Footprint[]): string {
  const lines = [
    `Footprint of \`node ${ARGS.join(" ")}\` (${IDLE_MILLIS / 1000} s idle before the memory is read):`,
    "",
    `Start times are medians of ${ROUNDS} starts each (every run in brackets).`,
    "",
    "| database | fresh start | warm start | idle RSS, whole tree | processes in the tree |",
    "|---|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${seconds(r.freshMillis)} (${r.freshRuns.map(seconds).join(", ")}) | ` +
        `${seconds(r.warmMillis)} (${r.warmRuns.map(seconds).join(", ")}) | ${r.idleRssMb.toFixed(0)} MB | ` +
        `${r.processes.map((p) => `\`${p}\``).join(", ")} |`,
    ),
    "",
    "Targets (on the 2-core machine): fresh start under 3 s, warm start under 1.5 s, idle RSS under 250 MB on PGlite " +
      "and under 150 MB on PostgreSQL; no TypeScript loader or bundler in the tree:",
    "",
    ...rows.map((r) => {
      const rssTarget = r.label === "PGlite" ? 250 : 150;
      const loaders = r.processes.filter((p) => /tsx|esbuild/.test(p));
      const met = (ok: boolean) => (ok ? "met" : "**not met**");
      return (
        `- ${r.label}: fresh ${met(r.freshMillis < 3000)}, warm ${met(r.warmMillis < 1500)}, idle RSS ${met(r.idleRssMb < rssTarget)}, ` +
        `tree ${loaders.length ? `**has ${loaders.join(", ")}**` : "has no loader or bundler"}`
      );
    }),
  ];
  return lines.join("\n");
}

function seconds(millis: number): string {
  return `${(millis / 1000).toFixed(2)} s`;
}
