import { paymentsProductsEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { testClockState, testClockView } from "../../../../domain/payments-clock.ts";

export default [
  defineRoute(paymentsProductsEndpoints.getPaymentsTestClock, async ({ auth, services }) => ({
    body: testClockView(await testClockState(services, tenancyOf(auth), auth.project.rendered)),
  })),
];
