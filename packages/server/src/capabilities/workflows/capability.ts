/**
 * Workflows: a project's own TypeScript, run when an event it names fires (the webhook events), calling the API
 * back with server access to its project. A run is written with the change whose event triggers it
 * (domain/runs.ts, from the events as they are recorded, as webhook messages are), and run once by the job
 * runner in a QuickJS sandbox under the e-mail templates' limits (domain/run-job.ts, domain/sandbox/), with a
 * workflow token for that run only (domain/tokens.ts; checked by http/auth.ts). The run log is kept as the
 * webhook log is (domain/retention.ts). Workflows are kept in their own table, not the project's config.
 *
 * Outside this folder: the job kind's payload in jobs/kinds.ts; the token check in http/auth.ts; the wire schemas
 * in @latchkey/shared (api/workflows.ts); `Services.api`, the app answering the runs' calls (server.ts).
 */
import { workflowsEndpoints } from "@latchkey/shared";
import { WEBHOOK_EVENT_TYPES } from "../../events/domain-events.ts";
import { defineCapability } from "../define.ts";
import { deleteOldWorkflowRuns } from "./domain/retention.ts";
import { workflowRunJob } from "./domain/run-job.ts";
import { recordWorkflowRuns } from "./domain/runs.ts";
import { deleteExpiredWorkflowTokens } from "./domain/tokens.ts";
import { workflowRuns, workflows, workflowTokens } from "./schema.ts";

export default defineCapability({
  name: "workflows",
  contract: workflowsEndpoints,
  tables: [workflows, workflowRuns, workflowTokens],
  events: { subscribes: [{ types: WEBHOOK_EVENT_TYPES, beforeCommit: recordWorkflowRuns }] },
  configKeys: [],
  housekeeping: [
    { name: "oldWorkflowRuns", sweep: deleteOldWorkflowRuns },
    { name: "expiredWorkflowTokens", sweep: deleteExpiredWorkflowTokens },
  ],
  jobs: [workflowRunJob],
});
