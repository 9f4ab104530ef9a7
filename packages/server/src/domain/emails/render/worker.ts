/**
 * The worker thread that owns the QuickJS sandbox. Rendering runs here so
 * that loading the runtime (~1.8 s once) and a template that spends its whole
 * CPU budget never block the server's event loop, and so that QuickJS runs on
 * a stack large enough for its own stack limit to stop deep recursion first.
 * The text version is derived here too, as parsing the template's HTML can be
 * slow (see text.ts).
 * Jobs arrive one at a time (client.ts queues them).
 */
import { parentPort } from "node:worker_threads";
import { MAX_HTML_BYTES } from "./limits.ts";
import { runtimeBundle } from "./runtime-bundle.ts";
import { htmlToText } from "./text.ts";
import { Sandbox, takeSnapshot, type SandboxOutcome, type Snapshot } from "./vm.ts";

/** The sandbox's outcome, with the text version of what it rendered. */
export type RenderOutcome =
  | Exclude<SandboxOutcome, { kind: "rendered" }>
  | { kind: "rendered"; html: string; text: string; subject: string | null; notificationCategory: string | null };

export interface JobMessage {
  id: number;
  job: string;
}
export interface OutcomeMessage {
  id: number;
  outcome: RenderOutcome;
}

let snapshot: Promise<Snapshot> | null = null;
let sandbox: Sandbox | null = null;

async function ready(): Promise<Sandbox> {
  snapshot ??= runtimeBundle()
    .then(takeSnapshot)
    .catch((error: unknown) => {
      snapshot = null; // tried again on the next job
      throw error;
    });
  if (!sandbox?.usable) sandbox = await Sandbox.create(await snapshot);
  return sandbox;
}

function withText(outcome: SandboxOutcome): RenderOutcome {
  if (outcome.kind !== "rendered") return outcome;
  if (Buffer.byteLength(outcome.html) > MAX_HTML_BYTES) {
    return { kind: "error", message: `it rendered more than ${MAX_HTML_BYTES / 1024 / 1024} MiB of HTML` };
  }
  return { ...outcome, text: htmlToText(outcome.html) };
}

async function handle({ id, job }: JobMessage): Promise<OutcomeMessage> {
  try {
    return { id, outcome: withText((await ready()).run(job)) };
  } catch (error) {
    // The engine itself failed (a WebAssembly trap, the host stack): the sandbox is replaced for the next job.
    // A RangeError is the host's stack, reached before QuickJS's own limit (its parser recursing, say) or in the text conversion.
    if (error instanceof RangeError) return { id, outcome: { kind: "error", message: "it nests or recurses too deeply (stack overflow)" } };
    return { id, outcome: { kind: "fault", message: `the sandbox failed (${error instanceof Error ? error.message : String(error)})` } };
  }
}

parentPort!.on("message", (message: JobMessage) => {
  void handle(message).then((reply) => parentPort!.postMessage(reply));
});
