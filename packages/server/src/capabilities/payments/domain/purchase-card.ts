/**
 * How the purchase page takes a card (card-settings): the publishable key
 * Stripe.js is loaded with and the account it acts on. A connected account
 * is reached with the operator's platform key (LATCHKEY_STRIPE_PUBLISHABLE_KEY)
 * acting on that account; an own-key account with the publishable key kept
 * sealed beside its secret key, on the key's own account. The return page
 * reads this after the payment used the code up, so a used code answers too
 * (until it expires), and it says whether the app's return URL is trusted
 * before the page sends the buyer there.
 */
import type { PurchaseCardSettingsJson } from "@latchkey/shared";
import { isTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import type { Services } from "../../../services.ts";
import { paymentsNow } from "./payments-clock.ts";
import { findIssuedPurchaseCode } from "./purchase-codes.ts";
import { projectOfCode } from "./purchase-flow.ts";
import { ownSecretsOf, stripeAccountOf } from "./stripe-account.ts";

export async function purchaseCardSettings(
  services: Services,
  fullCode: string,
  returnUrl: string | undefined,
): Promise<PurchaseCardSettingsJson> {
  const { scope, project } = await projectOfCode(services, fullCode);
  await findIssuedPurchaseCode(services, scope, fullCode, await paymentsNow(services, services.db, scope, project.rendered));
  const return_url_trusted = returnUrl !== undefined && isTrustedUrl(project.config, returnUrl);
  const account = await stripeAccountOf(services.db, scope);
  if (!account) return { publishable_key: null, stripe_account_id: null, return_url_trusted };
  if (account.kind === "own_key") {
    return { publishable_key: (await ownSecretsOf(services, account)).publishableKey, stripe_account_id: null, return_url_trusted };
  }
  return {
    publishable_key: services.config.stripe.publishableKey ?? null,
    stripe_account_id: account.stripeAccountId,
    return_url_trusted,
  };
}
