/**
 * The item ledger's arithmetic, kept pure so every rule has a unit test
 * (test/unit/payments-ledger.test.ts). A customer's quantity of an item is
 * its entries replayed in time order:
 * - a grant (positive) first pays off any debt; what is left becomes a grant
 *   of its own, with its expiry;
 * - a removal (negative) eats the grants that expire soonest first (those
 *   that never expire last); what it cannot cover becomes debt;
 * - when a grant expires, whatever is left of it stops counting.
 * The quantity is what the live grants hold, minus the debt. A grant that
 * has already expired when it is made counts for nothing.
 */

export interface LedgerEntry {
  /** When it was made (entries are replayed in this order; ties keep the given order). */
  at: Date;
  /** Positive grants, negative removes. */
  quantity: number;
  /** A grant's expiry; null: never. Ignored for removals. */
  expiresAt: Date | null;
}

interface Grant {
  left: number;
  expiresAt: number;
}

const NEVER = Number.POSITIVE_INFINITY;

/** The quantity at `now`, from every entry made up to it (later ones are ignored). */
export function quantityAt(entries: readonly LedgerEntry[], now: Date): number {
  const sorted = entries
    .map((entry, order) => ({ entry, order }))
    .filter(({ entry }) => entry.at.getTime() <= now.getTime())
    .sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || a.order - b.order);
  // Kept sorted by expiry, soonest first, so a removal eats from the front.
  let grants: Grant[] = [];
  let debt = 0;
  const expireUpTo = (time: number) => {
    grants = grants.filter((grant) => grant.expiresAt > time);
  };
  for (const { entry } of sorted) {
    const at = entry.at.getTime();
    expireUpTo(at);
    if (entry.quantity > 0) {
      const paid = Math.min(debt, entry.quantity);
      debt -= paid;
      const left = entry.quantity - paid;
      const expiresAt = entry.expiresAt?.getTime() ?? NEVER;
      if (left > 0 && expiresAt > at) insertByExpiry(grants, { left, expiresAt });
    } else if (entry.quantity < 0) {
      let owed = -entry.quantity;
      for (const grant of grants) {
        const taken = Math.min(grant.left, owed);
        grant.left -= taken;
        owed -= taken;
        if (owed === 0) break;
      }
      grants = grants.filter((grant) => grant.left > 0);
      debt += owed;
    }
  }
  expireUpTo(now.getTime());
  return grants.reduce((sum, grant) => sum + grant.left, 0) - debt;
}

function insertByExpiry(grants: Grant[], grant: Grant): void {
  const at = grants.findIndex((other) => other.expiresAt > grant.expiresAt);
  if (at === -1) grants.push(grant);
  else grants.splice(at, 0, grant);
}
