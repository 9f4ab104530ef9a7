import { paymentsAdminEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { setOwnStripeKey } from "../../../../domain/stripe-account.ts";

export default [
  defineRoute(paymentsAdminEndpoints.setStripeOwnKey, async ({ auth, body, services }) => ({
    body: await setOwnStripeKey(services, tenancyOf(auth), body),
  })),
];
