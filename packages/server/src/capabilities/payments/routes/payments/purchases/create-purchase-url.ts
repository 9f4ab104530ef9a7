import { paymentsProductsEndpoints } from "@latchkey/shared";
import { callerOf } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";
import { InvalidInput } from "../../../../../lib/invalid-input.ts";
import { customerOf } from "../../../domain/customers.ts";
import { createPurchaseUrl } from "../../../domain/purchase-flow.ts";

/** `/api/latest` is the newest version, which no longer knows offers; `/api/v1` still takes their names. */
function calledAsLatest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/latest/");
}

export default [
  defineRoute(paymentsProductsEndpoints.createPurchaseUrl, async ({ auth, body, request, services }) => {
    const { offer_id, offer_inline, ...rest } = body;
    const older = [offer_id !== undefined && "offer_id", offer_inline !== undefined && "offer_inline"].filter((key) => key !== false);
    if (older.length > 0 && calledAsLatest(request)) throw new InvalidInput([`body contains unknown properties: ${older.join(", ")}`]);
    const url = await createPurchaseUrl(services, callerOf(auth), auth.project, {
      customer: customerOf(rest),
      choice: { productId: rest.product_id ?? offer_id, inline: rest.product_inline ?? offer_inline },
      returnUrl: rest.return_url,
    });
    return { body: { url } };
  }),
];
