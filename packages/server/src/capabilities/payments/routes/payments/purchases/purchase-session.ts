import { paymentsProductsEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { stripePurchaseSession } from "../../../domain/stripe-purchases.ts";

export default [
  defineRoute(paymentsProductsEndpoints.purchaseSession, async ({ body, services }) => ({
    body: { client_secret: await stripePurchaseSession(services, body.full_code, body.price_id, body.quantity, body.currency) },
  })),
];
