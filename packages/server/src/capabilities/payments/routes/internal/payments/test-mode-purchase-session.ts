import { paymentsProductsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { testModePurchase } from "../../../domain/purchase-flow.ts";

export default [
  defineRoute(paymentsProductsEndpoints.testModePurchaseSession, async ({ body, services }) => {
    await testModePurchase(services, body.full_code, body.price_id, body.quantity, body.currency);
    return { body: { success: true as const } };
  }),
];
