/**
 * `/purchase/:code`: where a checkout URL leads an app's end user. Public:
 * the code is the credential, so no owner sign-in is asked (the route sits
 * outside the owner area).
 */
import { PurchasePage } from "@latchkey/react";
import { useParams, useSearchParams } from "react-router";

export default function PublicPurchasePage() {
  const { code = "" } = useParams();
  const [search] = useSearchParams();
  return (
    <main id="main">
      <PurchasePage fullCode={code} returnUrl={search.get("return_url") ?? undefined} />
    </main>
  );
}
