/**
 * Products priced "include-by-default": a free plan every customer of the
 * product's type owns without buying it. A customer owns one from the moment
 * they became a customer (a user's sign-up, a team's creation, and for a
 * custom customer, whose start nobody records, the project's creation),
 * except while they own another product of its product line: buying the
 * line's paid plan replaces the free one, and the free one comes back when
 * the paid one ends. Its included items are granted over each stretch of
 * ownership as a purchase's are (included-items.ts), repeats counted from
 * the stretch's start. Add-ons are never owned this way.
 */
import type { RenderedConfig } from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import { findTeamCached } from "../../../domain/teams/cached.ts";
import { findUserCached } from "../../../domain/users/cached.ts";
import type { Services } from "../../../services.ts";
import type { PaymentPurchaseRow } from "../schema.ts";
import type { Customer } from "./customers.ts";
import type { OwnedPurchase } from "./included-items.ts";

type ProductConfig = RenderedConfig["payments"]["products"][string];

export interface DefaultProduct {
  productId: string;
  product: ProductConfig;
  /** The stretches of time it was (or is) owned, oldest first; the last one is open while it still is. */
  spans: OwnedPurchase[];
}

/** When the customer became one: where a default product's ownership starts. Null when the customer is gone. */
export async function customerSince(services: Services, scope: Tenancy, customer: Customer): Promise<Date | null> {
  if (customer.type === "user") return (await findUserCached(services, scope.projectId, scope.branchId, customer.id))?.signedUpAt ?? null;
  if (customer.type === "team") return (await findTeamCached(services, scope, customer.id))?.createdAt ?? null;
  return (await services.projects.get(scope.projectId))?.createdAt ?? null;
}

/** The customer type's default products, each with the stretches the customer owned it up to `now`. */
export function defaultProducts(
  config: RenderedConfig,
  customer: Customer,
  since: Date,
  purchases: readonly PaymentPurchaseRow[],
  now: Date,
): DefaultProduct[] {
  const found: DefaultProduct[] = [];
  for (const [productId, product] of Object.entries(config.payments.products)) {
    if (product.prices !== "include-by-default" || product.customerType !== customer.type || product.isAddOnTo !== false) continue;
    const lineId = product.productLineId;
    const inLine =
      lineId === undefined
        ? []
        : purchases.filter((p) => p.productId !== productId && p.product.productLineId === lineId && !p.product.isAddOnTo);
    found.push({ productId, product, spans: spansOutside(since, inLine, now) });
  }
  return found;
}

/** The time from `since` to `now` that no purchase of `blocking` covers, as stretches of ownership. */
function spansOutside(since: Date, blocking: readonly PaymentPurchaseRow[], now: Date): OwnedPurchase[] {
  const covered = blocking
    .map((p) => ({ start: p.createdAt.getTime(), end: p.endedAt?.getTime() ?? Number.POSITIVE_INFINITY }))
    .filter((c) => c.start <= now.getTime())
    .sort((a, b) => a.start - b.start);
  const spans: OwnedPurchase[] = [];
  let from = since.getTime();
  for (const c of covered) {
    if (c.end <= from) continue;
    if (c.start > from) spans.push({ start: new Date(from), end: new Date(c.start), quantity: 1 });
    from = Math.max(from, c.end);
    if (from === Number.POSITIVE_INFINITY) return spans;
  }
  if (from <= now.getTime()) spans.push({ start: new Date(from), end: null, quantity: 1 });
  return spans;
}
