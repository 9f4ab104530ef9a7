import { paymentsProductsEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { advanceTestClock, testClockView } from "../../../../domain/payments-clock.ts";

export default [
  defineRoute(paymentsProductsEndpoints.advancePaymentsTestClock, async ({ auth, body, services }) => ({
    body: testClockView(await advanceTestClock(services, tenancyOf(auth), auth.project.rendered, body.ms)),
  })),
];
