import { INVOICES_DEFAULT_LIMIT, paymentsBillingEndpoints } from "@latchkey/shared";
import { callerOf, tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { customerOf, ensureClientCanAccessCustomer, ensureCustomerExists } from "../../../../domain/customers.ts";
import { listCustomerInvoices } from "../../../../domain/invoices.ts";

export default [
  defineRoute(paymentsBillingEndpoints.listCustomerInvoices, async ({ auth, params, query, services }) => {
    const customer = customerOf(params);
    await ensureClientCanAccessCustomer(services, callerOf(auth), customer, "Clients can only manage their own billing.");
    await ensureCustomerExists(services, tenancyOf(auth), customer);
    const page = { cursor: query.cursor, limit: query.limit ?? INVOICES_DEFAULT_LIMIT };
    return { body: await listCustomerInvoices(services.db, tenancyOf(auth), customer, page) };
  }),
];
