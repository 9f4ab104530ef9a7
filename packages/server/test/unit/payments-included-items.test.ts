/**
 * What owned products add to the item ledger (capabilities/payments/domain/
 * included-items.ts), replayed by the ledger's own arithmetic (ledger.ts):
 * quantity × purchase quantity, repeats every interval from the start
 * (month = 30 days, year = 365), and the three expiries.
 */
import { describe, expect, it } from "vitest";
import { includedItemEntries, type IncludedItem, type OwnedPurchase } from "../../src/capabilities/payments/domain/included-items.ts";
import { quantityAt } from "../../src/capabilities/payments/domain/ledger.ts";
import { intervalMs } from "../../src/capabilities/payments/domain/product-snapshot.ts";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);
const at = (days: number) => new Date(T0 + days * DAY);
const purchase = (over: Partial<OwnedPurchase> = {}): OwnedPurchase => ({ start: at(0), end: null, quantity: 1, ...over });
const item = (over: Partial<IncludedItem> = {}): IncludedItem => ({ quantity: 5, repeat: "never", expires: "never", ...over });
const quantityOn = (p: OwnedPurchase, i: IncludedItem, days: number) => quantityAt(includedItemEntries(p, i, at(days)), at(days));

describe("included items", () => {
  it("grant quantity × purchase quantity once, at the start, when nothing repeats", () => {
    const entries = includedItemEntries(purchase({ quantity: 3 }), item(), at(400));
    expect(entries).toEqual([{ at: at(0), quantity: 15, expiresAt: null }]);
    expect(quantityOn(purchase({ quantity: 3 }), item(), 400)).toBe(15);
  });

  it("grant nothing before the start, and nothing for a zero quantity", () => {
    expect(includedItemEntries(purchase({ start: at(10) }), item(), at(5))).toEqual([]);
    expect(includedItemEntries(purchase(), item({ quantity: 0 }), at(5))).toEqual([]);
  });

  it("repeat every interval from the start, a month being 30 days and a year 365", () => {
    const monthly = item({ repeat: [1, "month"] });
    expect(includedItemEntries(purchase(), monthly, at(59)).map((e) => e.at)).toEqual([at(0), at(30)]);
    expect(includedItemEntries(purchase(), monthly, at(60)).map((e) => e.at)).toEqual([at(0), at(30), at(60)]);
    expect(quantityOn(purchase(), monthly, 95)).toBe(20);
    expect(intervalMs([1, "year"])).toBe(365 * DAY);
    expect(intervalMs([2, "week"])).toBe(14 * DAY);
    expect(includedItemEntries(purchase(), item({ repeat: [1, "year"] }), at(730)).map((e) => e.at)).toEqual([at(0), at(365), at(730)]);
  });

  it("stop repeating when the purchase ends (a grant at the end itself is not made)", () => {
    const ended = purchase({ end: at(60) });
    expect(includedItemEntries(ended, item({ repeat: [1, "month"] }), at(200)).map((e) => e.at)).toEqual([at(0), at(30)]);
  });

  it("expire when-repeated grants at the next repeat, so the quantity holds at one grant", () => {
    const weekly = item({ repeat: [1, "week"], expires: "when-repeated" });
    const entries = includedItemEntries(purchase(), weekly, at(15));
    expect(entries.map((e) => e.expiresAt)).toEqual([at(7), at(14), at(21)]);
    expect(quantityOn(purchase(), weekly, 15)).toBe(5);
    // Spent credits come back at the repeat: a removal eats the grant that expires soonest.
    const spent = [...includedItemEntries(purchase(), weekly, at(8)), { at: at(2), quantity: -4, expiresAt: null }];
    expect(quantityAt(spent, at(6))).toBe(1);
    expect(quantityAt(spent, at(8))).toBe(5);
  });

  it("let a when-repeated grant without a repeat last as long as the purchase", () => {
    const once = item({ expires: "when-repeated" });
    expect(includedItemEntries(purchase({ end: at(40) }), once, at(50))).toEqual([{ at: at(0), quantity: 5, expiresAt: at(40) }]);
    expect(quantityOn(purchase({ end: at(40) }), once, 50)).toBe(0);
    expect(quantityOn(purchase(), once, 500)).toBe(5);
  });

  it("expire when-purchase-expires grants when the purchase ends, and never while it has no end", () => {
    const onEnd = item({ expires: "when-purchase-expires", repeat: [1, "month"] });
    expect(quantityOn(purchase(), onEnd, 65)).toBe(15);
    expect(quantityOn(purchase({ end: at(45) }), onEnd, 44)).toBe(10);
    expect(quantityOn(purchase({ end: at(45) }), onEnd, 45)).toBe(0);
  });

  it("keep never-expiring grants after the purchase ends", () => {
    expect(quantityOn(purchase({ end: at(45) }), item({ repeat: [1, "month"] }), 400)).toBe(10);
  });

  it("grant once for a zero-length repeat instead of looping forever", () => {
    expect(includedItemEntries(purchase(), item({ repeat: [0, "day"] }), at(10))).toHaveLength(1);
  });
});
