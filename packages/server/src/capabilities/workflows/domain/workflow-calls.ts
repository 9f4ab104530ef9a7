/**
 * Marks the work of answering a workflow run's own API calls. The changes those calls make send their webhooks
 * like any other, but trigger no workflow: a workflow on `user.updated` that updates the user would otherwise run
 * itself again with every run, for ever. The mark follows the call through the app and into the transactions it
 * opens (the calls are answered in process, run-job.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

const calls = new AsyncLocalStorage<string>();

/** Answers `call` as a call of the run `runId`. */
export function asWorkflowCall<T>(runId: string, call: () => Promise<T>): Promise<T> {
  return calls.run(runId, call);
}

/** Whether the current work answers a workflow run's call. */
export function inWorkflowCall(): boolean {
  return calls.getStore() !== undefined;
}
