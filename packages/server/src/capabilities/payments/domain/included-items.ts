/**
 * What owned products add to the item ledger (ledger.ts), kept pure so every
 * rule has a unit test (test/unit/payments-included-items.test.ts). For each
 * item a product includes:
 * - the grant is the item's quantity times the purchase's quantity, made at
 *   the purchase's start;
 * - with a `repeat` interval it is made again every interval from the start
 *   (a month is 30 days, a year 365), while the purchase lasts;
 * - it expires: `never`; `when-repeated` at the next repeat (without a
 *   repeat there is none, so it lasts as long as the purchase); or
 *   `when-purchase-expires` when the purchase ends (a subscription's end;
 *   never while it has none).
 */
import type { PaymentInterval } from "@latchkey/shared";
import { intervalMs } from "./product-snapshot.ts";
import type { LedgerEntry } from "./ledger.ts";

export interface IncludedItem {
  quantity: number;
  repeat: PaymentInterval | "never";
  expires: "never" | "when-purchase-expires" | "when-repeated";
}

export interface OwnedPurchase {
  /** When it was bought or granted: the first grant's time and where repeats count from. */
  start: Date;
  /** When it stops being owned; null: not (yet) known. */
  end: Date | null;
  quantity: number;
}

/** The ledger entries of one included item of one purchase, made up to `now`. */
export function includedItemEntries(purchase: OwnedPurchase, item: IncludedItem, now: Date): LedgerEntry[] {
  const amount = item.quantity * purchase.quantity;
  if (amount <= 0) return [];
  const start = purchase.start.getTime();
  const end = purchase.end?.getTime() ?? Number.POSITIVE_INFINITY;
  const until = Math.min(now.getTime(), end);
  const step = item.repeat === "never" ? null : intervalMs(item.repeat);
  const entries: LedgerEntry[] = [];
  // A zero-length repeat would repeat forever at one instant: it is granted once.
  for (let at = start; at <= until && at < end; at += step ?? 0) {
    entries.push({ at: new Date(at), quantity: amount, expiresAt: expiryOf(item, at, step, purchase.end) });
    if (!step) break;
  }
  return entries;
}

function expiryOf(item: IncludedItem, grantedAt: number, step: number | null, end: Date | null): Date | null {
  switch (item.expires) {
    case "never":
      return null;
    case "when-purchase-expires":
      return end;
    case "when-repeated":
      return step ? new Date(grantedAt + step) : end;
  }
}
