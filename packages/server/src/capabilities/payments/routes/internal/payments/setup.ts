import { paymentsAdminEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";
import { connectOnboardingUrl } from "../../../domain/stripe-account.ts";

export default [
  defineRoute(paymentsAdminEndpoints.setupPayments, async ({ auth, services }) => ({
    body: { url: await connectOnboardingUrl(services, tenancyOf(auth)) },
  })),
];
