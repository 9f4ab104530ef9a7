/**
 * The sandbox: QuickJS compiled to WebAssembly, with no host function
 * installed at all. The only way in is a JSON string handed to
 * `__latchkey.render`, the only way out the JSON string it answers.
 *
 * Loading the runtime (React, its renderer, the React Email components) costs
 * QuickJS about 1.8 s of CPU, mostly Prism's grammars in CodeBlock, far too
 * much for every render. So it is loaded once (per worker, see worker.ts), and
 * the whole WebAssembly memory is saved right after: the snapshot. Each render
 * starts by writing the snapshot back over the memory and zeroing what lies
 * beyond: the engine is then exactly as it was before any template ran, so no
 * render can see or change another's state (a stronger reset than a fresh
 * context in a shared runtime), for the price of a memory copy (~2 ms).
 *
 * This leans on two facts of quickjs-emscripten: the engine keeps all its state
 * in WebAssembly memory (the JS wrappers only hold pointers, the same after a
 * restore), and a variant accepts the WebAssembly.Memory to run in.
 */
import releaseSyncImport from "@jitl/quickjs-wasmfile-release-sync";
import {
  Lifetime,
  QuickJSRuntime,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { RENDER_CPU_MILLIS, RENDER_MEMORY_BYTES } from "./limits.ts";

// The package's types describe its CommonJS build (the variant under `default`); Node loads its ES build, whose default is the variant.
export const releaseSync = ((releaseSyncImport as { default?: QuickJSSyncVariant }).default ?? releaseSyncImport) as QuickJSSyncVariant;

/**
 * QuickJS's own stack limit, well inside the WebAssembly stack (5 MiB in this
 * build), so deep recursion ends in QuickJS's "stack overflow" error and never
 * overruns memory. ~450 nested elements render. Some recursion in C (its
 * parser's) can exhaust the host's stack first: a RangeError in the host,
 * after which the engine is replaced (see `run`).
 */
export const MAX_STACK_BYTES = 2 * 1024 * 1024;
export const PAGE_BYTES = 65536;
/**
 * A render that grew the memory this far past the snapshot retires its
 * engine: restoring zeroes everything past the snapshot (~13 ms per 100 MB),
 * and a new engine gives the memory back.
 */
const RETIRE_GROWTH_BYTES = 32 * 1024 * 1024;
/** Growth stops this close to the cap when the next allocation no longer fits (a 1 MiB buffer needs more than 1 MiB). */
const FULL_MARGIN_BYTES = 2 * 1024 * 1024;

export interface Snapshot {
  bytes: Uint8Array;
  rt: number;
  ctx: number;
}

/** How a render ended. */
export type SandboxOutcome =
  | { kind: "rendered"; html: string; subject: string | null; notificationCategory: string | null }
  /** The TSX failed: it threw, broke the contract (no EmailTemplate…), or overflowed the stack. */
  | { kind: "error"; message: string }
  | { kind: "timeout" }
  | { kind: "memory" }
  /** It waits for something that never comes (a promise nothing will settle). */
  | { kind: "stalled" }
  /** The engine itself failed (not the template's code): a WebAssembly trap, the host's stack. */
  | { kind: "fault"; message: string };

type Internals = ConstructorParameters<typeof QuickJSRuntime>[0];

/** Loads the runtime script into a new engine and saves the memory. Trusted code: no limits yet. */
export async function takeSnapshot(runtimeScript: string): Promise<Snapshot> {
  const qjs = await newQuickJSWASMModuleFromVariant(releaseSync);
  const runtime = qjs.newRuntime();
  const context = runtime.newContext();
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  const loaded = context.evalCode(runtimeScript, "latchkey-email-runtime.js");
  if (loaded.error) {
    const reason = context.dump(loaded.error);
    loaded.error.dispose();
    throw new Error(`The e-mail sandbox runtime failed to load: ${JSON.stringify(reason)}`);
  }
  loaded.value.dispose();
  const bytes = new Uint8Array(qjs.getWasmMemory().buffer).slice();
  const pointers = { rt: (runtime as unknown as Internals).rt.value, ctx: (context as unknown as { ctx: Lifetime<number> }).ctx.value };
  return { bytes, ...pointers };
}

export class Sandbox {
  #usable = true;

  private constructor(
    private readonly snapshot: Snapshot,
    private readonly memory: WebAssembly.Memory,
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
  ) {}

  /** A new engine running in a copy of the snapshot (~30 ms). */
  static async create(snapshot: Snapshot): Promise<Sandbox> {
    const pages = Math.ceil(snapshot.bytes.length / PAGE_BYTES);
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages + RENDER_MEMORY_BYTES / PAGE_BYTES });
    const qjs: QuickJSWASMModule = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory: memory }));
    if (qjs.getWasmMemory() !== memory) throw new Error("The QuickJS build did not take the memory it was given");
    new Uint8Array(memory.buffer).set(snapshot.bytes);
    // Wrap the snapshot's runtime and context (their pointers are valid in this memory now) instead of creating new ones.
    const internals = qjs as unknown as Omit<Internals, "rt">;
    const runtime = new QuickJSRuntime({
      module: internals.module,
      ffi: internals.ffi,
      callbacks: internals.callbacks,
      rt: new Lifetime(snapshot.rt as Internals["rt"]["value"]),
    });
    const context = runtime.newContext({ contextPointer: snapshot.ctx as never });
    return new Sandbox(snapshot, memory, runtime, context);
  }

  /** False once the engine faulted (not a template's error) or grew too large: make a new one. */
  get usable(): boolean {
    return this.#usable;
  }

  /**
   * Runs one render to its end, synchronously: from the snapshot, with the
   * CPU deadline enforced by QuickJS's interrupt handler and the memory cap
   * by the WebAssembly memory's maximum.
   */
  run(jobJson: string): SandboxOutcome {
    if (!this.#usable) throw new Error("This sandbox is retired");
    try {
      this.#restore();
      const outcome = this.#run(jobJson);
      // At the cap, an error is the allocation that failed, however QuickJS worded it (or could not, out of memory).
      const full = this.memory.buffer.byteLength + FULL_MARGIN_BYTES >= this.#capBytes;
      return full && outcome.kind === "error" ? { kind: "memory" } : outcome;
    } catch (error) {
      // Only faults of the engine reach here (a WebAssembly trap, the host's stack); a template's errors are outcomes.
      this.#usable = false;
      throw error;
    } finally {
      if (this.memory.buffer.byteLength > this.snapshot.bytes.length + RETIRE_GROWTH_BYTES) this.#usable = false;
    }
  }

  get #capBytes(): number {
    return this.snapshot.bytes.length + RENDER_MEMORY_BYTES;
  }

  #restore() {
    const heap = new Uint8Array(this.memory.buffer);
    heap.set(this.snapshot.bytes);
    heap.fill(0, this.snapshot.bytes.length);
  }

  #run(jobJson: string): SandboxOutcome {
    const { runtime, context: ctx } = this;
    // Elapsed time on the monotonic clock: a budget, not a time of day (lib/clock.ts is for those).
    const deadline = performance.now() + RENDER_CPU_MILLIS;
    let interrupted = false;
    runtime.setInterruptHandler(() => (interrupted ||= performance.now() > deadline));
    const handles: QuickJSHandle[] = [];
    const keep = <T extends QuickJSHandle>(handle: T) => (handles.push(handle), handle);
    // What escapes the sandbox's own catch: the interrupt (uncatchable), or a failure of the catch itself (out of memory, a replaced built-in).
    const thrown = (): SandboxOutcome =>
      interrupted
        ? { kind: "timeout" }
        : { kind: "error", message: "it failed in a way the renderer could not report (did it replace a built-in?)" };
    try {
      const api = keep(ctx.unwrapResult(ctx.evalCode("__latchkey")));
      const render = keep(ctx.getProp(api, "render"));
      const runTask = keep(ctx.getProp(api, "runTask"));
      const called = ctx.callFunction(render, ctx.undefined, keep(ctx.newString(jobJson)));
      if (called.error) {
        keep(called.error);
        return thrown();
      }
      const promise = keep(called.value);
      for (;;) {
        const state = ctx.getPromiseState(promise);
        if (state.type === "fulfilled") {
          const value = keep(state.value);
          return interrupted ? { kind: "timeout" } : answerOf(ctx.typeof(value) === "string" ? ctx.getString(value) : null);
        }
        if (state.type === "rejected") {
          keep(state.error);
          return thrown();
        }
        // Pending: run the microtasks, else one queued task; nothing left to run means it waits forever.
        const jobs = runtime.executePendingJobs();
        if (jobs.error) {
          keep(jobs.error);
          return thrown();
        }
        if (jobs.value > 0) continue;
        const task = ctx.callFunction(runTask, ctx.undefined);
        if (task.error) {
          keep(task.error);
          return thrown();
        }
        const ran = keep(task.value);
        if (ctx.typeof(ran) !== "boolean" || !ctx.dump(ran)) return interrupted ? { kind: "timeout" } : { kind: "stalled" };
      }
    } finally {
      for (const handle of handles) if (handle.alive) handle.dispose();
      runtime.removeInterruptHandler();
    }
  }
}

/** Reads the JSON that `__latchkey.render` answers (sandbox/entry.ts); the TSX may have tampered with it, so check it. */
function answerOf(json: string | null): SandboxOutcome {
  let answer: { ok?: unknown; html?: unknown; subject?: unknown; notificationCategory?: unknown; error?: unknown };
  try {
    answer = JSON.parse(json ?? "null") ?? {};
  } catch {
    answer = {};
  }
  if (answer.ok === false && typeof answer.error === "string") return { kind: "error", message: answer.error };
  const category = answer.notificationCategory;
  if (
    answer.ok === true &&
    typeof answer.html === "string" &&
    (answer.subject === null || typeof answer.subject === "string") &&
    (category === null || typeof category === "string")
  ) {
    return { kind: "rendered", html: answer.html, subject: answer.subject, notificationCategory: category };
  }
  return { kind: "error", message: "the sandbox gave a malformed answer" };
}
