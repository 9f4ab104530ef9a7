import { paymentsBillingEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { customerBilling } from "../../../../domain/customer-billing.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../domain/customers.ts";

export default [
  defineRoute(paymentsBillingEndpoints.getCustomerBilling, async ({ auth, params, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only manage their own billing.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    return { body: await customerBilling(services, tenancyOf(auth), customer) };
  }),
];
