/**
 * The server's side of a workflow run's worker (worker.ts): a new worker per run, the script's API calls
 * answered by `callApi`, and the worker ended when the run is done, fails, or overruns WORKFLOW_RUN_WALL_MILLIS
 * (time spent waiting for the API included, which the CPU limit does not count).
 */
import { Worker } from "node:worker_threads";
import type { CallMessage, DoneMessage, ResponseMessage, RunOutcome } from "./protocol.ts";

/** Native stack for the worker: room for QuickJS's stack limit to be reached before the host's (as for templates). */
const WORKER_STACK_MB = 32;
/** The longest a run may last, start to end: within its workflow token's life, so every call it makes is honoured. */
export const WORKFLOW_RUN_WALL_MILLIS = 30_000;

export interface ApiAnswer {
  status: number;
  /** JSON: the answer's body, parsed when it was JSON, else its text. */
  bodyJson: string;
}

export function runWorkflowScript(
  script: string,
  eventJson: string,
  callApi: (call: Omit<CallMessage, "type" | "id">) => Promise<ApiAnswer>,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./workflow-worker.mjs", import.meta.url), {
      execArgv: [],
      resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    });
    let done = false;
    const finish = (outcome: RunOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ status: "timed_out", output: "", error: `It ran for more than ${WORKFLOW_RUN_WALL_MILLIS / 1000} s.` }),
      WORKFLOW_RUN_WALL_MILLIS,
    );
    worker.on("message", (message: CallMessage | DoneMessage) => {
      if (message.type === "done") return finish(message.outcome);
      const { id, method, path, body } = message;
      void callApi({ method, path, body })
        .catch((error: unknown) => ({ status: 0, bodyJson: JSON.stringify(`The call failed: ${String(error)}`) }))
        .then(({ status, bodyJson }) => {
          if (!done) worker.postMessage({ type: "response", id, status, bodyJson } satisfies ResponseMessage);
        });
    });
    worker.on("error", (error) => finish({ status: "failed", output: "", error: `The sandbox stopped: ${error.message}` }));
    worker.on("exit", () => finish({ status: "failed", output: "", error: "The sandbox stopped unexpectedly." }));
    worker.postMessage({ type: "start", script, eventJson });
  });
}
