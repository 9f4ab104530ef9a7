/** The item ledger's arithmetic (capabilities/payments/domain/ledger.ts), rule by rule. */
import { describe, expect, it } from "vitest";
import { quantityAt, type LedgerEntry } from "../../src/capabilities/payments/domain/ledger.ts";

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const at = (day: number) => new Date(T0 + day * DAY);
const entry = (day: number, quantity: number, expiresDay: number | null = null): LedgerEntry => ({
  at: at(day),
  quantity,
  expiresAt: expiresDay === null ? null : at(expiresDay),
});

describe("the item ledger", () => {
  it("sums grants and removals that never expire", () => {
    expect(quantityAt([entry(0, 2), entry(1, -1), entry(2, 5)], at(3))).toBe(6);
    expect(quantityAt([], at(0))).toBe(0);
  });

  it("drops what is left of a grant when it expires, and counts a grant already expired when made as nothing", () => {
    const entries = [entry(0, 10, 5), entry(1, -3)];
    expect(quantityAt(entries, at(4))).toBe(7);
    expect(quantityAt(entries, at(5))).toBe(0);
    expect(quantityAt([entry(3, 4, 2)], at(3))).toBe(0);
  });

  it("takes a removal from the grant that expires soonest, never-expiring grants last", () => {
    const entries = [entry(0, 5), entry(0, 5, 10), entry(0, 5, 20), entry(1, -7)];
    // The day-10 grant is used up, 2 come out of the day-20 one, the never-expiring five are untouched.
    expect(quantityAt(entries, at(2))).toBe(8);
    expect(quantityAt(entries, at(15))).toBe(8);
    expect(quantityAt(entries, at(25))).toBe(5);
  });

  it("turns a removal it cannot cover into debt, which the next grant pays first", () => {
    const entries = [entry(0, 2, 30), entry(1, -5)];
    expect(quantityAt(entries, at(2))).toBe(-3);
    // Debt does not expire with the grant that was used up.
    expect(quantityAt(entries, at(40))).toBe(-3);
    // A grant of 10 expiring on day 50 pays the 3 owed; 7 remain until it expires.
    const later = [...entries, entry(41, 10, 50)];
    expect(quantityAt(later, at(42))).toBe(7);
    expect(quantityAt(later, at(50))).toBe(0);
  });

  it("ignores entries made after the time asked about, and replays same-time entries in the order given", () => {
    expect(quantityAt([entry(0, 3), entry(5, 4)], at(2))).toBe(3);
    // Removal first, then the grant: debt 2 paid off, 1 left.
    expect(quantityAt([entry(1, -2), entry(1, 3)], at(1))).toBe(1);
  });
});
