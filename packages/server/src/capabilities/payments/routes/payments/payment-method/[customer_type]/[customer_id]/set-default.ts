import { paymentsBillingEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../../http/route.ts";
import { setDefaultPaymentMethodFromSetupIntent } from "../../../../../domain/customer-billing.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../../domain/customers.ts";

export default [
  defineRoute(paymentsBillingEndpoints.setDefaultPaymentMethod, async ({ auth, params, body, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only manage their own payment method.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    const card = await setDefaultPaymentMethodFromSetupIntent(services, tenancyOf(auth), customer, body.setup_intent_id);
    return { body: { success: true as const, default_payment_method: card } };
  }),
];
