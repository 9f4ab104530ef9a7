import { paymentsAdminTransactionsEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { listTransactions, transactionsLimit } from "../../../../domain/transactions.ts";

export default [
  defineRoute(paymentsAdminTransactionsEndpoints.listTransactions, async ({ auth, query, services }) => {
    const page = await listTransactions(services.db, tenancyOf(auth), {
      cursor: query.cursor,
      limit: transactionsLimit(query.limit),
      type: query.type,
      customerType: query.customer_type,
    });
    return { body: { transactions: page.transactions, next_cursor: page.nextCursor } };
  }),
];
