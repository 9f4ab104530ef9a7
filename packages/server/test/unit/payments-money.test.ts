/** Money amounts in minor units (capabilities/payments/domain/money.ts): what refunds and charged amounts add up. */
import { describe, expect, it } from "vitest";
import { fromMinorUnits, toMinorUnits } from "../../src/capabilities/payments/domain/money.ts";

describe("toMinorUnits", () => {
  it("reads whole and fractional amounts in the currency's units", () => {
    expect(toMinorUnits("0", "USD")).toBe(0);
    expect(toMinorUnits("12", "USD")).toBe(1200);
    expect(toMinorUnits("12.5", "USD")).toBe(1250);
    expect(toMinorUnits("12.05", "USD")).toBe(1205);
    expect(toMinorUnits("5000", "JPY")).toBe(5000);
  });

  it("refuses what is not an amount of the currency", () => {
    for (const text of ["-1", "01", "1.", ".5", "1.234", "ten", "", "1e3", " 1"]) expect(toMinorUnits(text, "USD"), text).toBeNull();
    expect(toMinorUnits("1.5", "JPY")).toBeNull();
  });
});

describe("fromMinorUnits", () => {
  it("writes amounts without trailing zeros, negative ones with a minus", () => {
    expect(fromMinorUnits(0, "USD")).toBe("0");
    expect(fromMinorUnits(5, "USD")).toBe("0.05");
    expect(fromMinorUnits(1250, "USD")).toBe("12.5");
    expect(fromMinorUnits(2500, "USD")).toBe("25");
    expect(fromMinorUnits(-1999, "EUR")).toBe("-19.99");
    expect(fromMinorUnits(700, "JPY")).toBe("700");
  });

  it("round-trips with toMinorUnits", () => {
    for (const text of ["0.01", "9.9", "1000", "123456.78"]) expect(fromMinorUnits(toMinorUnits(text, "USD")!, "USD")).toBe(text);
  });
});
