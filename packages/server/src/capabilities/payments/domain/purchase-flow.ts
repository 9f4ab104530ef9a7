/**
 * Buying through a purchase URL: create-purchase-url makes
 * a code for a customer and product, the purchase page reads it
 * (validate-code), and in test mode takes the product without paying
 * (test-mode-purchase-session). Paying with Stripe is the Stripe
 * integration's; outside test mode a project needs a payment account
 * (a Stripe account: stripe-account.ts) before a URL is made at all.
 */
import { KnownErrors, priceCurrencies, StatusError, type Currency, type RenderedConfig } from "@latchkey/shared";
import type { Caller } from "../../../domain/caller.ts";
import type { ProjectRow } from "../../../domain/projects/projects.ts";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import { ensureClientCanAccessCustomer, ensureCustomerExists, type Customer } from "./customers.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { isTestMode, paymentsNow, TEST_MODE_OFF_MESSAGE } from "./payments-clock.ts";
import { chargeCurrency } from "./charge-currency.ts";
import { priceOf, productOf, productView, type ProductChoice } from "./product-snapshot.ts";
import { grantProductIn, purchaseContext } from "./purchases.ts";
import { createPurchaseCode, findPurchaseCode, scopeOfCode, takePurchaseCode } from "./purchase-codes.ts";

export const PAYMENTS_NOT_SET_UP_MESSAGE =
  "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.";

/** The 403 of a project whose config blocks new purchases, on every route that buys. */
export function ensurePurchasesAllowed(config: RenderedConfig): void {
  if (config.payments.blockNewPurchases) throw new KnownErrors.NewPurchasesBlocked();
}

/** The type a product is for must be the customer's. */
export function ensureProductFitsCustomer(
  product: { customerType: Customer["type"] },
  productId: string | undefined,
  customer: Customer,
): void {
  if (product.customerType !== customer.type) {
    throw new KnownErrors.ProductCustomerTypeDoesNotMatch(productId ?? null, customer.id, product.customerType, customer.type);
  }
}

export interface PurchaseUrlRequest {
  customer: Customer;
  choice: ProductChoice;
  returnUrl: string | undefined;
}

/** Makes a purchase code, in the API's order of checks; answers the purchase page's URL. */
export async function createPurchaseUrl(
  services: Services,
  caller: Caller,
  project: ProjectRow,
  request: PurchaseUrlRequest,
): Promise<string> {
  const scope = caller.scope;
  const config = project.rendered;
  const { customer } = request;
  ensurePurchasesAllowed(config);
  await ensureClientCanAccessCustomer(services, caller, customer, "Clients can only create purchase URLs for their own user or team.");
  if (!isTestMode(config) && !(await stripeAccountOf(services.db, scope))) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  const product = productOf(config, caller.accessType, request.choice);
  ensureProductFitsCustomer(product, request.choice.productId, customer);
  await ensureCustomerExists(services, scope, customer);
  const productId = request.choice.productId ?? null;
  const context = await purchaseContext(services, scope, config, customer, product, productId);
  if (productId !== null && context.alreadyOwned) throw new KnownErrors.ProductAlreadyGranted(productId, customer.id);
  if (request.returnUrl !== undefined) assertTrustedUrl(project.config, request.returnUrl);
  const now = await paymentsNow(services, services.db, scope, config);
  const fullCode = await createPurchaseCode(services.db, scope, customer, productId, product, now);
  // The purchase page is the dashboard's, which this server serves at its root.
  const url = new URL(`/purchase/${fullCode}`, new URL(services.config.apiUrl).origin);
  if (request.returnUrl !== undefined) url.searchParams.set("return_url", request.returnUrl);
  return url.toString();
}

/** The project a full code belongs to, or VERIFICATION_CODE_NOT_FOUND. */
export async function projectOfCode(services: Services, fullCode: string): Promise<{ scope: Tenancy; project: ProjectRow }> {
  const scope = scopeOfCode(fullCode);
  const project = scope ? await services.projects.get(scope.projectId) : null;
  if (!scope || !project) throw new KnownErrors.VerificationCodeNotFound();
  return { scope, project };
}

export async function validatePurchaseCode(services: Services, fullCode: string, returnUrl: string | undefined) {
  const { scope, project } = await projectOfCode(services, fullCode);
  const config = project.rendered;
  const code = await findPurchaseCode(services, scope, fullCode, await paymentsNow(services, services.db, scope, config));
  if (returnUrl !== undefined) assertTrustedUrl(project.config, returnUrl);
  const context = await purchaseContext(services, scope, config, code.customer, code.product, code.productId);
  const { server_only: _s, included_items: _i, server_metadata: _m, ...product } = productView(code.product, code.productId);
  const account = await stripeAccountOf(services.db, scope);
  return {
    product,
    project_id: project.id,
    project_logo_url: project.logoUrl ?? null,
    stripe_account_id: account?.stripeAccountId ?? null,
    charges_enabled: account?.chargesEnabled ?? false,
    already_bought_non_stackable: context.alreadyOwned,
    conflicting_products: context.conflicting,
    test_mode: isTestMode(config),
  };
}

/**
 * Takes the code's product without paying (test mode): the code is used up
 * and the product granted in one transaction, so a failed grant leaves the
 * code usable and two purchases with one code make one grant.
 */
export async function testModePurchase(
  services: Services,
  fullCode: string,
  priceId: string,
  quantity: number,
  askedCurrency: Currency | undefined,
): Promise<void> {
  const { scope, project } = await projectOfCode(services, fullCode);
  const config = project.rendered;
  // An unknown code is 404 whatever the project's settings.
  await findPurchaseCode(services, scope, fullCode, await paymentsNow(services, services.db, scope, config));
  ensurePurchasesAllowed(config);
  if (!isTestMode(config)) throw new StatusError(403, TEST_MODE_OFF_MESSAGE);
  await services.events.transaction(services.db, async (tx) => {
    const code = await takePurchaseCode(tx, scope, fullCode, await paymentsNow(services, tx, scope, config));
    await ensureCustomerExists(services, scope, code.customer);
    // A currency the price lacks is refused before anything is granted (the code is then left unused).
    const price = priceOf(code.product, priceId);
    const priced = price && (askedCurrency !== undefined || priceCurrencies(price.price).length > 0);
    const currency = priced ? chargeCurrency(price.price, askedCurrency) : undefined;
    await grantProductIn(services, tx, scope, config, {
      customer: code.customer,
      product: code.product,
      productId: code.productId ?? undefined,
      priceId,
      quantity,
      source: "test_mode",
      testMode: true,
      currency,
    });
  });
}
