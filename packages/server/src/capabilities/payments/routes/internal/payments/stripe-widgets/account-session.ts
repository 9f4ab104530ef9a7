import { paymentsAdminEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { stripeAccountSession } from "../../../../domain/stripe-account.ts";

export default [
  defineRoute(paymentsAdminEndpoints.createStripeAccountSession, async ({ auth, services }) => ({
    body: { client_secret: await stripeAccountSession(services, tenancyOf(auth)) },
  })),
];
