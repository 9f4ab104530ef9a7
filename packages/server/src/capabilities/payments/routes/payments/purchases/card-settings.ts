import { paymentsProductsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { purchaseCardSettings } from "../../../domain/purchase-card.ts";

export default [
  defineRoute(paymentsProductsEndpoints.purchaseCardSettings, async ({ body, services }) => ({
    body: await purchaseCardSettings(services, body.full_code, body.return_url),
  })),
];
