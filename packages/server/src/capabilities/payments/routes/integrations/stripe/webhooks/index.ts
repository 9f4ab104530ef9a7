import { paymentsAdminEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../../http/route.ts";
import { receivePlatformStripeEvent } from "../../../../domain/stripe-webhooks.ts";

export default [
  defineRoute(paymentsAdminEndpoints.receiveStripeWebhook, async ({ body, headers, services }) => {
    await receivePlatformStripeEvent(services, body, headers.get("stripe-signature"));
    return { body: { received: true as const } };
  }),
];
