import { paymentsAdminEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../../http/route.ts";
import { receiveProjectStripeEvent } from "../../../../domain/stripe-webhooks.ts";

export default [
  defineRoute(paymentsAdminEndpoints.receiveProjectStripeWebhook, async ({ params, body, headers, services }) => {
    await receiveProjectStripeEvent(services, params.project_id, body, headers.get("stripe-signature"));
    return { body: { received: true as const } };
  }),
];
