import { cliAuthEndpoints } from "@latchkey/shared";
import { pollCliAuth } from "../../../domain/poll.ts";
import { defineRoute } from "../../../../../http/route.ts";

export default [
  defineRoute(cliAuthEndpoints.pollCliAuth, async ({ auth, body, services }) => {
    const answer = await pollCliAuth(services, { projectId: auth.project.id, branchId: auth.branchId }, body.polling_code);
    // 201 tells the CLI it received its session (the one time it does).
    return { status: answer.status === "success" ? 201 : 200, body: answer };
  }),
];
