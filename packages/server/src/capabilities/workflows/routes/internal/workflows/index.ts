import { workflowsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { createWorkflow, listWorkflows, workflowView } from "../../../domain/workflows.ts";

export default [
  defineRoute(workflowsEndpoints.listWorkflows, async ({ auth, services }) => ({
    body: { items: (await listWorkflows(services, auth.project.id)).map(workflowView) },
  })),
  defineRoute(workflowsEndpoints.createWorkflow, async ({ auth, body, services }) => ({
    status: 201,
    body: workflowView(await createWorkflow(services, auth.project.id, body)),
  })),
];
