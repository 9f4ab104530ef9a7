/**
 * Running one workflow run: a `workflow.run` job, claimed by one replica (jobs/runner.ts). The script is compiled
 * (TypeScript, importing nothing) and run in its own sandbox worker (sandbox/), with a workflow token minted for
 * this run and deleted when it ends; its calls to `latchkey.api` are answered by this server's own app, in
 * process, with server access to the run's project. A run is tried once: a script has effects, and running it
 * again is its owner's decision. Whatever the script does, the run ends logged as succeeded, failed or timed out.
 */
import { eq } from "drizzle-orm";
import { API_PREFIX } from "@latchkey/shared";
import { CompileError } from "../../../domain/emails/render/compile.ts";
import type { JobKindDefinition } from "../../../jobs/kinds.ts";
import type { Services } from "../../../services.ts";
import { workflowRuns, workflows } from "../schema.ts";
import { runWorkflowScript, WORKFLOW_RUN_WALL_MILLIS, type ApiAnswer } from "./sandbox/client.ts";
import type { CallMessage, RunOutcome } from "./sandbox/protocol.ts";
import { mintWorkflowToken, revokeWorkflowToken } from "./tokens.ts";
import { compileWorkflow } from "./workflows.ts";
import { asWorkflowCall } from "./workflow-calls.ts";

const METHODS = new Set(["GET", "POST", "PATCH", "PUT", "DELETE"]);

export function workflowRunJob(services: Services): JobKindDefinition<"workflow.run"> {
  return {
    kind: "workflow.run",
    retry: { maxAttempts: 1, backoffMillis: [] },
    // Room for the run's whole allowance, its compile and the bookkeeping around it.
    leaseMillis: WORKFLOW_RUN_WALL_MILLIS + 60_000,
    handler: (job) => runWorkflow(services, job.payload.run_id),
  };
}

async function runWorkflow(services: Services, runId: string): Promise<void> {
  const [found] = await services.db
    .select({ run: workflowRuns, workflow: workflows })
    .from(workflowRuns)
    .innerJoin(workflows, eq(workflows.id, workflowRuns.workflowId))
    .where(eq(workflowRuns.id, runId));
  // Gone with its workflow or project; or started already, by a replica that was lost mid-run.
  if (!found) return;
  const { run, workflow } = found;
  if (run.status === "running") return finish(services, runId, { status: "failed", output: "", error: "The server running it stopped." });
  if (run.status !== "pending") return;
  if (!workflow.enabled)
    return finish(services, runId, { status: "failed", output: "", error: "The workflow was disabled before it ran." });
  await services.db.update(workflowRuns).set({ status: "running", startedAt: services.clock.date() }).where(eq(workflowRuns.id, runId));

  let script: string;
  try {
    script = await compileWorkflow(workflow.source);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    return finish(services, runId, { status: "failed", output: "", error: error.message });
  }
  const token = await mintWorkflowToken(services, run.projectId, runId);
  let outcome: RunOutcome;
  try {
    outcome = await runWorkflowScript(script, JSON.stringify(run.event), (call) =>
      asWorkflowCall(runId, () => callApi(services, run.projectId, token, call)),
    );
  } finally {
    await revokeWorkflowToken(services, token);
  }
  await finish(services, runId, outcome);
}

async function finish(services: Services, runId: string, outcome: RunOutcome): Promise<void> {
  await services.db
    .update(workflowRuns)
    .set({
      status: outcome.status,
      output: outcome.output,
      error: outcome.status === "succeeded" ? null : outcome.error,
      finishedAt: services.clock.date(),
    })
    .where(eq(workflowRuns.id, runId));
}

/** One `latchkey.api` call: a request to this server's API only, as server access to the run's project. */
async function callApi(services: Services, projectId: string, token: string, call: Omit<CallMessage, "type" | "id">): Promise<ApiAnswer> {
  const method = call.method.toUpperCase();
  const url = new URL(API_PREFIX + call.path, "http://workflow.invalid");
  if (!METHODS.has(method)) return refused(`The method must be one of ${[...METHODS].join(", ")}.`);
  if (!call.path.startsWith("/") || !url.pathname.startsWith(`${API_PREFIX}/`) || url.origin !== "http://workflow.invalid") {
    return refused("The path must be one of the API's, such as /users/{user_id}.");
  }
  const headers: Record<string, string> = {
    "x-stack-access-type": "server",
    "x-stack-project-id": projectId,
    "x-stack-workflow-token": token,
  };
  if (call.body !== null) headers["content-type"] = "application/json";
  const response = await services.api.fetch(new Request(url, { method, headers, body: call.body ?? undefined }));
  const text = await response.text();
  return { status: response.status, bodyJson: isJson(text) ? text : JSON.stringify(text) };
}

function refused(message: string): ApiAnswer {
  return { status: 400, bodyJson: JSON.stringify(message) };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return text.trim() !== "";
  } catch {
    return false;
  }
}
