import { paymentsItemsEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../../http/route.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../../../domain/customers.ts";
import { customerSince } from "../../../../../../domain/default-products.ts";
import { itemConfigFor, itemQuantity, itemView } from "../../../../../../domain/items.ts";
import { paymentsNow } from "../../../../../../domain/payments-clock.ts";

export default [
  defineRoute(paymentsItemsEndpoints.getItem, async ({ auth, params, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only access their own user or team items.");
    const item = itemConfigFor(auth.project.rendered, params.item_id, customer);
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    const now = await paymentsNow(services, services.db, tenancyOf(auth), auth.project.rendered);
    const since = await customerSince(services, tenancyOf(auth), customer);
    const quantity = await itemQuantity(services.db, tenancyOf(auth), customer, params.item_id, now, {
      config: auth.project.rendered,
      since,
    });
    return { body: itemView(params.item_id, item, quantity) };
  }),
];
