import { paymentsAdminEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { stripeAccountInfo } from "../../../../domain/stripe-account.ts";

export default [
  defineRoute(paymentsAdminEndpoints.getStripeAccountInfo, async ({ auth, services }) => ({
    body: await stripeAccountInfo(services, tenancyOf(auth)),
  })),
];
