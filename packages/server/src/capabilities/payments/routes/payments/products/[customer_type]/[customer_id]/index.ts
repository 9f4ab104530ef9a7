import { OWNED_PRODUCTS_DEFAULT_LIMIT, paymentsProductsEndpoints, StatusError } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../http/route.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../../domain/customers.ts";
import { productOf } from "../../../../../domain/product-snapshot.ts";
import { ensureProductFitsCustomer } from "../../../../../domain/purchase-flow.ts";
import { grantProduct, ownedProductEntries } from "../../../../../domain/purchases.ts";
import { isTestMode } from "../../../../../domain/payments-clock.ts";

export default [
  defineRoute(paymentsProductsEndpoints.listOwnedProducts, async ({ auth, params, query, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only access their own user or team products.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    const entries = await ownedProductEntries(services, tenancyOf(auth), auth.project.rendered, customer, auth.type === "client");
    const start = query.cursor === undefined ? 0 : entries.findIndex((entry) => entry.cursor === query.cursor);
    if (start === -1) throw new StatusError(400, "Invalid cursor");
    const limit = query.limit ?? OWNED_PRODUCTS_DEFAULT_LIMIT;
    return {
      body: {
        items: entries.slice(start, start + limit).map((entry) => entry.item),
        is_paginated: true as const,
        pagination: { next_cursor: entries[start + limit]?.cursor ?? null },
      },
    };
  }),
  defineRoute(paymentsProductsEndpoints.grantProduct, async ({ auth, params, body, services }) => {
    const customer = customerOf(params);
    const config = auth.project.rendered;
    const product = productOf(config, auth.type, { productId: body.product_id, inline: body.product_inline });
    ensureProductFitsCustomer(product, body.product_id, customer);
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    const granted = await grantProduct(services, tenancyOf(auth), config, {
      customer,
      product,
      productId: body.product_id,
      priceId: undefined,
      quantity: body.quantity,
      source: "api_grant",
      testMode: isTestMode(config),
    });
    return { body: { success: true as const, ...(granted.kind === "subscription" ? { subscription_id: granted.purchaseId } : {}) } };
  }),
];
