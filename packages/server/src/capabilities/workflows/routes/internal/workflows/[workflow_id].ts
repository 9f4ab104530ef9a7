import { SUCCESS, workflowsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { deleteWorkflow, getWorkflow, updateWorkflow, workflowView } from "../../../domain/workflows.ts";

export default [
  defineRoute(workflowsEndpoints.getWorkflow, async ({ auth, params, services }) => ({
    body: workflowView(await getWorkflow(services, auth.project.id, params.workflow_id)),
  })),
  defineRoute(workflowsEndpoints.updateWorkflow, async ({ auth, params, body, services }) => ({
    body: workflowView(await updateWorkflow(services, auth.project.id, params.workflow_id, body)),
  })),
  defineRoute(workflowsEndpoints.deleteWorkflow, async ({ auth, params, services }) => {
    await deleteWorkflow(services, auth.project.id, params.workflow_id);
    return { body: SUCCESS };
  }),
];
