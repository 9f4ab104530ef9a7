/**
 * How the purchase page takes a card (card-settings): the publishable key
 * Stripe.js is loaded with and the account it acts on (stripe-card-form.ts).
 * The return page reads this after the payment used the code up, so a used
 * code answers too (until it expires), and it says whether the app's return
 * URL is trusted before the page sends the buyer there.
 */
import type { PurchaseCardSettingsJson } from "@latchkey/shared";
import { isTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import type { Services } from "../../../services.ts";
import { paymentsNow } from "./payments-clock.ts";
import { findIssuedPurchaseCode } from "./purchase-codes.ts";
import { projectOfCode } from "./purchase-flow.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { stripeCardForm } from "./stripe-card-form.ts";

export async function purchaseCardSettings(
  services: Services,
  fullCode: string,
  returnUrl: string | undefined,
): Promise<PurchaseCardSettingsJson> {
  const { scope, project } = await projectOfCode(services, fullCode);
  await findIssuedPurchaseCode(services, scope, fullCode, await paymentsNow(services, services.db, scope, project.rendered));
  const return_url_trusted = returnUrl !== undefined && isTrustedUrl(project.config, returnUrl);
  return { ...(await stripeCardForm(services, await stripeAccountOf(services.db, scope))), return_url_trusted };
}
