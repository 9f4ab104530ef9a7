import { paymentsAdminTransactionsEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../../http/auth.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { refundPurchase } from "../../../../domain/refunds.ts";

export default [
  defineRoute(paymentsAdminTransactionsEndpoints.refundTransaction, async ({ auth, body, services }) => {
    await refundPurchase(services, tenancyOf(auth), auth.project.rendered, body);
    return { body: { success: true as const } };
  }),
];
