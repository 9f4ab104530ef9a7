/**
 * The server's side of the sandbox worker (worker.ts): started on the first
 * render, sent one job at a time, and replaced if it dies or, as a last
 * resort should QuickJS's own interrupt ever fail, if it overruns its time.
 */
import { Worker } from "node:worker_threads";
import { RENDER_CPU_MILLIS } from "./limits.ts";
import type { JobMessage, OutcomeMessage, RenderOutcome } from "./worker.ts";

/** Native stack for the worker: room for QuickJS's 2 MiB stack limit to be reached before the host's (see vm.ts). */
const WORKER_STACK_MB = 32;
/** A job's wall-clock allowance beyond its CPU limit: restoring the snapshot, a new engine, a slow machine. */
const JOB_SLACK_MILLIS = 2_500;
/** The first job also bundles and loads the runtime (~2 s here), far slower on a loaded CI machine. */
const START_SLACK_MILLIS = 60_000;
/**
 * A replacement worker (after one was ended for overrunning) gets less: the
 * runtime is bundled already, and a template that keeps killing workers must
 * not hold everyone's mail for a minute each time.
 */
const RESTART_SLACK_MILLIS = 15_000;
let workersStarted = 0;

interface Queued {
  job: string;
  resolve: (outcome: RenderOutcome) => void;
}

let worker: Worker | null = null;
let started = false;
let nextId = 1;
let running: { id: number; entry: Queued; timer: NodeJS.Timeout } | null = null;
const queue: Queued[] = [];

function startWorker(): Worker {
  const w = new Worker(new URL("./worker.mjs", import.meta.url), {
    execArgv: [],
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
  });
  started = false;
  workersStarted += 1;
  w.on("message", (message: OutcomeMessage) => {
    if (running?.id !== message.id) return;
    started = true;
    finish(message.outcome);
  });
  w.on("error", (error) => stop(w, { kind: "fault", message: `the sandbox stopped unexpectedly (${error.message})` }));
  w.on("exit", () => stop(w, { kind: "fault", message: "the sandbox stopped unexpectedly" }));
  return w;
}

/** Ends the current job (if it ran in this worker) and drops the worker; the next job starts a new one. */
function stop(w: Worker, outcome: RenderOutcome) {
  if (worker !== w) return;
  worker = null;
  void w.terminate();
  finish(outcome);
}

function finish(outcome: RenderOutcome) {
  if (!running) return;
  clearTimeout(running.timer);
  const { entry } = running;
  running = null;
  entry.resolve(outcome);
  pump();
}

function pump() {
  if (running) return;
  const entry = queue.shift();
  if (!entry) {
    worker?.unref(); // idle: no reason to keep the process alive
    return;
  }
  worker ??= startWorker();
  worker.ref();
  const id = nextId++;
  const w = worker;
  const allowance = RENDER_CPU_MILLIS + JOB_SLACK_MILLIS + (started ? 0 : workersStarted > 1 ? RESTART_SLACK_MILLIS : START_SLACK_MILLIS);
  // Some built-ins never check for the interrupt (JSON.stringify of deeply nested arrays is quadratic): end the worker.
  const timer = setTimeout(() => stop(w, { kind: "timeout" }), allowance);
  running = { id, entry, timer };
  w.postMessage({ id, job: entry.job } satisfies JobMessage);
}

/** Runs one job (the JSON that vm.ts's Sandbox.run takes) in the worker. */
export function runInSandbox(job: string): Promise<RenderOutcome> {
  return new Promise((resolve) => {
    queue.push({ job, resolve });
    pump();
  });
}
