/** The messages between the server (client.ts) and a workflow run's worker (worker.ts). */

/** The run: the compiled script (CommonJS, exporting the handler as `default`) and the event it handles. */
export interface StartMessage {
  type: "start";
  script: string;
  eventJson: string;
}

/** The script calls the API (`latchkey.api`): the server answers with a ResponseMessage of the same id. */
export interface CallMessage {
  type: "call";
  id: number;
  method: string;
  path: string;
  /** JSON, or null for no body. */
  body: string | null;
}

export interface ResponseMessage {
  type: "response";
  id: number;
  status: number;
  /** JSON: the answer's body, parsed when it was JSON, else its text. */
  bodyJson: string;
}

export type RunOutcome =
  | { status: "succeeded"; output: string }
  | { status: "failed"; output: string; error: string }
  | { status: "timed_out"; output: string; error: string };

export interface DoneMessage {
  type: "done";
  outcome: RunOutcome;
}
