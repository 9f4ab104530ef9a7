import { paymentsProductsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { validatePurchaseCode } from "../../../domain/purchase-flow.ts";

export default [
  defineRoute(paymentsProductsEndpoints.validatePurchaseCode, async ({ body, services }) => ({
    body: await validatePurchaseCode(services, body.full_code, body.return_url),
  })),
];
