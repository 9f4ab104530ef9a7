import { paymentsProductsEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../http/route.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../../domain/customers.ts";
import { ensurePurchasesAllowed } from "../../../../../domain/purchase-flow.ts";
import { switchSubscription } from "../../../../../domain/subscription-switch.ts";

export default [
  defineRoute(paymentsProductsEndpoints.switchSubscription, async ({ auth, params, body, services }) => {
    const customer = customerOf(params);
    ensurePurchasesAllowed(auth.project.rendered);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only manage their own subscriptions.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    await switchSubscription(services, tenancyOf(auth), auth.project.rendered, customer, body);
    return { body: { success: true as const } };
  }),
];
