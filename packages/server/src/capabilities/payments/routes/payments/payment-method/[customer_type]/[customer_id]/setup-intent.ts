import { paymentsBillingEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../http/route.ts";
import { createPaymentMethodSetupIntent } from "../../../../../domain/customer-billing.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../../domain/customers.ts";

export default [
  defineRoute(paymentsBillingEndpoints.createPaymentMethodSetupIntent, async ({ auth, params, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only manage their own payment method.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    return { body: await createPaymentMethodSetupIntent(services, tenancyOf(auth), customer) };
  }),
];
