import { paymentsProductsEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../../http/route.ts";
import { customerOf, ensureClientCanAccessCustomer } from "../../../../../../domain/customers.ts";
import { productOf } from "../../../../../../domain/product-snapshot.ts";
import { ensureProductFitsCustomer } from "../../../../../../domain/purchase-flow.ts";
import { cancelProduct } from "../../../../../../domain/cancellations.ts";

export default [
  defineRoute(paymentsProductsEndpoints.cancelProduct, async ({ auth, params, query, services }) => {
    const customer = customerOf(params);
    const forbidden =
      customer.type === "custom"
        ? "Clients can only cancel user or team subscriptions they control."
        : "Clients can only cancel their own subscriptions.";
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, forbidden);
    const config = auth.project.rendered;
    const product = productOf(config, auth.type, { productId: params.product_id, inline: undefined });
    ensureProductFitsCustomer(product, params.product_id, customer);
    await cancelProduct(services, tenancyOf(auth), config, customer, params.product_id, query.subscription_id);
    return { body: { success: true as const } };
  }),
];
