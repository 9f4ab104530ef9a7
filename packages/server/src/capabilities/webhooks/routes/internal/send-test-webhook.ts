import { webhooksEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { sendTestWebhook } from "../../domain/test-send.ts";

export default [
  defineRoute(webhooksEndpoints.sendTestWebhook, async ({ auth, body, services }) => ({
    body: await sendTestWebhook(services, auth.project.id, body.endpoint_id),
  })),
];
