/**
 * A workflow run's worker thread: one per run, ended by the server when the run is over (client.ts), so nothing
 * of one run outlives it and a run that never yields is stopped by ending the thread.
 *
 * The script runs in QuickJS, as e-mail templates do (domain/emails/render/vm.ts), under the same limits: the
 * CPU time of RENDER_CPU_MILLIS (counted only while QuickJS runs, not while an API call is answered) and
 * RENDER_MEMORY_BYTES of memory past the engine's start, as the WebAssembly memory's maximum. It sees three
 * host functions and nothing else: `console.*` (its output, kept for the run log) and `latchkey.api`, whose
 * calls the server answers (client.ts) as its own API, with the run's workflow token.
 */
import { parentPort } from "node:worker_threads";
import { WORKFLOW_RUN_OUTPUT_KEPT_CHARS } from "@latchkey/shared";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
} from "quickjs-emscripten-core";
import { RENDER_CPU_MILLIS, RENDER_MEMORY_BYTES } from "../../../../domain/emails/render/limits.ts";
import { MAX_STACK_BYTES, PAGE_BYTES, releaseSync } from "../../../../domain/emails/render/vm.ts";
import type { CallMessage, DoneMessage, ResponseMessage, RunOutcome, StartMessage } from "./protocol.ts";

/** The QuickJS build's own starting memory (16 MiB); the cap is this plus RENDER_MEMORY_BYTES. */
const INITIAL_PAGES = 256;
/** API calls one run may make: a script calling in a loop ends, with its token, instead of flooding the server. */
export const WORKFLOW_MAX_API_CALLS = 100;

/** What the script sees of the API: `latchkey.api(method, path, body?)` → `{status, ok, body}`. */
const PRELUDE = `
globalThis.latchkey = Object.freeze({
  async api(method, path, body) {
    const answer = JSON.parse(await __latchkeyCall(String(method), String(path), body === undefined ? null : JSON.stringify(body)));
    return { status: answer.status, ok: answer.status >= 200 && answer.status < 300, body: answer.body };
  },
});
`;

function entry(script: string, eventJson: string): string {
  return `${PRELUDE}
(function () {
  const module = { exports: {} };
  const exports = module.exports;
${script}
  const main = module.exports.default;
  if (typeof main !== "function") throw new TypeError("The workflow must export a default function: export default async function (event) { … }");
  globalThis.__latchkeyRun = Promise.resolve().then(() => main(JSON.parse(${JSON.stringify(eventJson)})));
})();`;
}

function cut(text: string): string {
  return text.length > WORKFLOW_RUN_OUTPUT_KEPT_CHARS ? `${text.slice(0, WORKFLOW_RUN_OUTPUT_KEPT_CHARS)}…` : text;
}

function describe(ctx: QuickJSContext, handle: QuickJSHandle): string {
  const value: unknown = ctx.dump(handle);
  if (value && typeof value === "object" && "message" in value) {
    const { name, message, stack } = value as { name?: unknown; message?: unknown; stack?: unknown };
    return `${String(name ?? "Error")}: ${String(message)}${typeof stack === "string" && stack ? `\n${stack}` : ""}`;
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

let answered: () => void = () => {};
const pending = new Map<number, QuickJSDeferredPromise>();
let context: QuickJSContext | null = null;

async function run({ script, eventJson }: StartMessage): Promise<RunOutcome> {
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: INITIAL_PAGES + RENDER_MEMORY_BYTES / PAGE_BYTES });
  const qjs = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory: memory }));
  const runtime = qjs.newRuntime();
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  const ctx = (context = runtime.newContext());

  let output = "";
  const log = (line: string) => {
    if (output.length <= WORKFLOW_RUN_OUTPUT_KEPT_CHARS) output += `${line}\n`;
  };
  // CPU time on the monotonic clock, summed over the slices QuickJS runs in (a budget, not a time of day).
  let spent = 0;
  let deadline = 0;
  let interrupted = false;
  runtime.setInterruptHandler(() => (interrupted ||= performance.now() > deadline));
  const timed = <T>(work: () => T): T => {
    const began = performance.now();
    deadline = began + RENDER_CPU_MILLIS - spent;
    try {
      return work();
    } finally {
      spent += performance.now() - began;
    }
  };
  const failed = (error: string): RunOutcome =>
    interrupted
      ? { status: "timed_out", output: cut(output), error: `It used more than ${RENDER_CPU_MILLIS / 1000} s of CPU time.` }
      : { status: "failed", output: cut(output), error: cut(error) };

  const consoleObject = ctx.newObject();
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const fn = ctx.newFunction(level, (...args) => {
      const words = args.map((arg) => {
        const value: unknown = ctx.dump(arg);
        return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
      });
      log(level === "log" || level === "info" ? words.join(" ") : `[${level}] ${words.join(" ")}`);
    });
    ctx.setProp(consoleObject, level, fn);
    fn.dispose();
  }
  ctx.setProp(ctx.global, "console", consoleObject);
  consoleObject.dispose();

  let calls = 0;
  const call = ctx.newFunction("__latchkeyCall", (method, path, body) => {
    const deferred = ctx.newPromise();
    calls += 1;
    if (calls > WORKFLOW_MAX_API_CALLS) {
      const error = ctx.newError(`A workflow run may make at most ${WORKFLOW_MAX_API_CALLS} API calls.`);
      deferred.reject(error);
      error.dispose();
      return deferred.handle;
    }
    const id = calls;
    pending.set(id, deferred);
    const message: CallMessage = {
      type: "call",
      id,
      method: ctx.getString(method),
      path: ctx.getString(path),
      body: ctx.typeof(body) === "string" ? ctx.getString(body) : null,
    };
    parentPort!.postMessage(message);
    return deferred.handle;
  });
  ctx.setProp(ctx.global, "__latchkeyCall", call);
  call.dispose();

  const evaluated = timed(() => ctx.evalCode(entry(script, eventJson), "workflow.js"));
  if (evaluated.error) return failed(describe(ctx, evaluated.error));
  evaluated.value.dispose();
  const result = ctx.getProp(ctx.global, "__latchkeyRun");
  for (;;) {
    const state = ctx.getPromiseState(result);
    if (state.type === "fulfilled") return interrupted ? failed("") : { status: "succeeded", output: cut(output) };
    if (state.type === "rejected") return failed(describe(ctx, state.error));
    const jobs = timed(() => runtime.executePendingJobs());
    if (jobs.error) return failed(describe(ctx, jobs.error));
    if (jobs.value > 0) continue;
    if (pending.size === 0) return failed("It waits for something that never comes (a promise nothing settles).");
    await new Promise<void>((resolve) => (answered = resolve));
  }
}

function answer({ id, status, bodyJson }: ResponseMessage): void {
  const deferred = pending.get(id);
  if (!deferred || !context) return;
  pending.delete(id);
  const value = context.newString(`{"status":${status},"body":${bodyJson}}`);
  deferred.resolve(value);
  value.dispose();
  answered();
}

parentPort!.on("message", (message: StartMessage | ResponseMessage) => {
  if (message.type === "response") return answer(message);
  void run(message)
    .catch((error: unknown): RunOutcome => {
      // The engine itself failed (a WebAssembly trap, the host's stack): the run fails, the worker ends with it.
      const reason = error instanceof RangeError ? "it nests or recurses too deeply (stack overflow)" : String(error);
      return { status: "failed", output: "", error: `The sandbox failed: ${reason}` };
    })
    .then((outcome) => parentPort!.postMessage({ type: "done", outcome } satisfies DoneMessage));
});
