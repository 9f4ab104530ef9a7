/**
 * `/purchase/return`: where Stripe sends the buyer after paying on the
 * purchase page. Public like it; Stripe adds `payment_intent_client_secret`
 * to the address the purchase page gave it.
 */
import { PurchaseReturnPage } from "@latchkey/react";
import { useSearchParams } from "react-router";

export default function PublicPurchaseReturnPage() {
  const [search] = useSearchParams();
  return (
    <main id="main">
      <PurchaseReturnPage
        fullCode={search.get("purchase_full_code") ?? ""}
        clientSecret={search.get("payment_intent_client_secret") ?? undefined}
        returnUrl={search.get("return_url") ?? undefined}
      />
    </main>
  );
}
