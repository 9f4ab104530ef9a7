import { paymentsItemsEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../../http/route.ts";
import { customerOf, ensureCustomerExists } from "../../../../../../domain/customers.ts";
import { changeItemQuantity, itemConfigFor } from "../../../../../../domain/items.ts";

export default [
  defineRoute(paymentsItemsEndpoints.updateItemQuantity, async ({ auth, params, query, body, services }) => {
    const customer = customerOf(params);
    itemConfigFor(auth.project.rendered, params.item_id, customer);
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    await changeItemQuantity(
      services,
      tenancyOf(auth),
      customer,
      params.item_id,
      {
        ...body,
        allowNegative: query.allow_negative === "true",
      },
      auth.project.rendered,
    );
    return { body: {} };
  }),
];
