import { workflowsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../../http/route.ts";
import { listWorkflowRuns, workflowRunView } from "../../../../domain/workflows.ts";

export default [
  defineRoute(workflowsEndpoints.listWorkflowRuns, async ({ auth, params, services }) => ({
    body: { items: (await listWorkflowRuns(services, auth.project.id, params.workflow_id)).map(workflowRunView) },
  })),
];
