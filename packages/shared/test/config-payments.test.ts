/** The payments catalogue in config overrides: each value rule and its message, the rules across keys, and older names. */
import { describe, expect, it } from "vitest";
import {
  mergeConfigOverrides,
  migrateConfigOverride,
  paymentsCatalogueProblems,
  refuseNewConfigProblems,
  renderConfig,
  validateConfigOverride,
  type ConfigLevel,
  type ConfigOverride,
} from "../src/config/index.ts";
import { StatusError } from "../src/known-errors/status-errors.ts";

const FORMAT = "Money amount must be in the format of <number> or <number>.<number>";
const LEADING_ZEROS = "Money amount must not have leading zeros";
const NO_CURRENCY = "At least one currency is required";

function refusal(level: ConfigLevel, override: ConfigOverride): string {
  try {
    validateConfigOverride(level, override);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error("accepted");
}

/** The refusal of a price written whole, as a nested value and as a dotted key. */
function priceRefusals(price: Record<string, unknown>): string[] {
  return [
    refusal("branch", { payments: { products: { pro: { prices: { monthly: price } } } } }),
    refusal("branch", { "payments.products.pro.prices.monthly": price }),
    refusal("environment", { "payments.products.pro": { prices: { monthly: price } } }),
  ];
}

function amountRefusal(code: string, amount: unknown): string {
  const [nested, ...others] = priceRefusals({ [code]: amount });
  for (const other of others) expect(other).toBe(nested);
  expect(refusal("branch", { [`payments.products.pro.prices.monthly.${code}`]: amount })).toBe(nested);
  return nested!;
}

function problemsOf(override: ConfigOverride): string[] {
  return paymentsCatalogueProblems(renderConfig(override)).map((problem) => problem.message);
}

describe("money amounts", () => {
  it("accepts digits with up to the currency's decimals, and zero", () => {
    for (const amount of ["0", "0.5", "0.05", "1", "10", "10.9", "10.99", "1000000", "0.00"]) {
      validateConfigOverride("branch", { "payments.products.pro.prices.monthly": { USD: amount, EUR: amount, GBP: amount } });
    }
    validateConfigOverride("branch", { "payments.products.pro.prices.monthly": { JPY: "500", INR: "1.5", AUD: "2", CAD: "3.25" } });
  });

  it("refuses what is not <number> or <number>.<number>", () => {
    for (const amount of ["", "abc", "1.", ".5", "-1", "+1", "1e3", " 1", "1 ", "1,50", "1.2.3", "$5", "١٢"]) {
      expect(amountRefusal("USD", amount), amount).toBe(FORMAT);
    }
  });

  it("refuses more decimals than the currency has: JPY none, the others two", () => {
    expect(amountRefusal("USD", "1.234")).toBe("Too many decimals; USD only has 2 decimals");
    expect(amountRefusal("EUR", "0.001")).toBe("Too many decimals; EUR only has 2 decimals");
    expect(amountRefusal("JPY", "1.5")).toBe("Too many decimals; JPY only has 0 decimals");
    expect(amountRefusal("JPY", "0.0")).toBe("Too many decimals; JPY only has 0 decimals");
  });

  it("refuses leading zeros, checked after the decimals", () => {
    expect(amountRefusal("USD", "01")).toBe(LEADING_ZEROS);
    expect(amountRefusal("USD", "00")).toBe(LEADING_ZEROS);
    expect(amountRefusal("USD", "007.50")).toBe(LEADING_ZEROS);
    expect(amountRefusal("JPY", "0100")).toBe(LEADING_ZEROS);
    expect(amountRefusal("USD", "01.234")).toBe("Too many decimals; USD only has 2 decimals");
  });

  it("refuses an amount that is not a string, and a currency that is not known", () => {
    expect(amountRefusal("USD", 10)).toBe(
      "payments.products.pro.prices.monthly.USD must be a `string` type, but the final value was: `10`.",
    );
    expect(refusal("branch", { "payments.products.pro.prices.monthly": { USD: 10 } })).toBe(
      "payments.products.pro.prices.monthly.USD must be a `string` type, but the final value was: `10`.",
    );
    expect(refusal("branch", { "payments.products.pro.prices.monthly": { XYZ: "1" } })).toBe(
      'The key "payments.products.pro.prices.monthly.XYZ" is not valid (nested object not found in schema: "payments.products.pro.prices.monthly.XYZ").',
    );
  });
});

describe("prices", () => {
  it("need at least one currency where a price is written whole", () => {
    for (const price of [{}, { interval: [1, "month"] }, { serverOnly: true, freeTrial: [7, "day"] }, { USD: null }]) {
      expect(priceRefusals(price)).toEqual([NO_CURRENCY, NO_CURRENCY, NO_CURRENCY]);
    }
    validateConfigOverride("branch", { "payments.products.pro.prices.monthly": { JPY: "1000", interval: [1, "month"] } });
    validateConfigOverride("branch", { "payments.products.pro.prices.monthly": { USD: null, EUR: "9" } });
  });

  it("may be include-by-default, none, or removed with null", () => {
    validateConfigOverride("branch", { "payments.products.free": { prices: "include-by-default" } });
    validateConfigOverride("branch", { "payments.products.free": { prices: {} } });
    validateConfigOverride("branch", { "payments.products.pro.prices.monthly": null, "payments.products.pro.prices": null });
    expect(refusal("branch", { "payments.products.free": { prices: "free" } })).toBe("payments.products.free.prices is invalid");
    expect(refusal("branch", { "payments.products.free": { prices: 5 } })).toBe("payments.products.free.prices is invalid");
  });

  it("check each field's type", () => {
    expect(refusal("branch", { "payments.products.pro.prices.m": { USD: "1", serverOnly: "yes" } })).toBe(
      'payments.products.pro.prices.m.serverOnly must be a `boolean` type, but the final value was: `"yes"`.',
    );
    expect(refusal("branch", { "payments.products.pro.prices.m.interval": [1, "hour"] })).toBe(
      "payments.products.pro.prices.m.interval[1] must be one of the following values: day, week, month, year",
    );
  });
});

describe("ids", () => {
  const long = `a${"b".repeat(62)}`;

  it("accept a letter, digit or underscore, then letters, digits, _ and -, up to 63 characters", () => {
    for (const id of ["a", "_", "9", "1pro", "Pro", "pro_plan-2", "_x-1", long]) {
      validateConfigOverride("branch", {
        [`payments.items.${id}`]: {},
        [`payments.productLines.${id}`]: {},
        [`payments.products.${id}`]: { isAddOnTo: { [id]: true }, includedItems: { [id]: {} }, prices: { [id]: { USD: "1" } } },
      });
    }
  });

  it("refuse anything else wherever a catalogue id is a key, written nested or dotted", () => {
    expect(refusal("branch", { payments: { items: { "pro.plan": {} } } })).toBe(
      "Key pro.plan contains a dot, which is not allowed in config override.",
    );
    for (const id of ["-pro", "pro plan", "a:b", "$pro", `${long}c`, "é"]) {
      const bad = (record: string) => `${record} has an invalid key: "${id}"`;
      const nested = (value: Record<string, unknown>) => refusal("branch", { payments: value });
      const safe = /^[A-Za-z0-9_$:-]+$/.test(id);
      expect(nested({ items: { [id]: {} } }), id).toBe(bad("payments.items"));
      expect(nested({ productLines: { [id]: {} } }), id).toBe(bad("payments.productLines"));
      expect(nested({ products: { [id]: {} } }), id).toBe(bad("payments.products"));
      expect(nested({ products: { pro: { prices: { [id]: { USD: "1" } } } } }), id).toBe(bad("payments.products.pro.prices"));
      expect(nested({ products: { pro: { includedItems: { [id]: {} } } } }), id).toBe(bad("payments.products.pro.includedItems"));
      expect(nested({ products: { pro: { isAddOnTo: { [id]: true } } } }), id).toBe(bad("payments.products.pro.isAddOnTo"));
      // A dotted key holds only config key characters; a valid one that is not an id is refused at its record.
      if (safe) {
        expect(refusal("branch", { [`payments.products.${id}`]: {} }), id).toBe(bad("payments.products"));
        expect(refusal("branch", { [`payments.items.${id}.displayName`]: "x" }), id).toBe(bad("payments.items"));
        expect(refusal("branch", { [`payments.products.pro.prices.${id}`]: { USD: "1" } }), id).toBe(bad("payments.products.pro.prices"));
      } else {
        expect(refusal("branch", { [`payments.products.${id}`]: {} }), id).toMatch(/^Invalid config format: /);
      }
    }
  });
});

describe("intervals", () => {
  const places: [string, (interval: unknown) => ConfigOverride][] = [
    ["payments.autoPay.interval", (v) => ({ "payments.autoPay.interval": v })],
    ["payments.products.pro.freeTrial", (v) => ({ "payments.products.pro": { freeTrial: v } })],
    ["payments.products.pro.prices.m.interval", (v) => ({ "payments.products.pro.prices.m": { USD: "5", interval: v } })],
    ["payments.products.pro.prices.m.freeTrial", (v) => ({ "payments.products.pro.prices.m": { USD: "5", freeTrial: v } })],
    ["payments.products.pro.includedItems.credits.repeat", (v) => ({ "payments.products.pro.includedItems.credits": { repeat: v } })],
  ];

  it("accept [a non-negative integer, day|week|month|year]", () => {
    for (const [, at] of places) {
      for (const unit of ["day", "week", "month", "year"]) validateConfigOverride("branch", at([0, unit]));
      validateConfigOverride("branch", at([12, "month"]));
    }
  });

  it("refuse a negative or fractional count, another unit, another length, or no array", () => {
    for (const [path, at] of places) {
      expect(refusal("branch", at([-1, "day"]))).toBe(`${path}[0] must be greater than or equal to 0`);
      expect(refusal("branch", at([1.5, "day"]))).toBe(`${path}[0] must be an integer`);
      expect(refusal("branch", at(["1", "day"]))).toBe(`${path}[0] must be a \`number\` type, but the final value was: \`"1"\`.`);
      expect(refusal("branch", at([1, "hour"]))).toBe(`${path}[1] must be one of the following values: day, week, month, year`);
      expect(refusal("branch", at([1, null]))).toBe(`${path}[1] is a required field`);
      expect(refusal("branch", at([1]))).toBe(`${path} must have exactly 2 elements`);
      expect(refusal("branch", at([1, "day", 2]))).toBe(`${path} must have exactly 2 elements`);
    }
    expect(refusal("branch", places[1]![1]({ days: 7 }))).toBe(
      'payments.products.pro.freeTrial must be a `tuple` type, but the final value was: `{"days":7}`.',
    );
  });

  it("let an included item repeat never, and nothing else but an interval", () => {
    validateConfigOverride("branch", { "payments.products.pro.includedItems.credits": { repeat: "never", quantity: 5, expires: "never" } });
    expect(refusal("branch", { "payments.products.pro.includedItems.credits.repeat": "sometimes" })).toBe(
      "payments.products.pro.includedItems.credits.repeat is invalid",
    );
  });
});

describe("the other catalogue keys", () => {
  it("hold their types", () => {
    const cases: [ConfigOverride, string][] = [
      [{ "payments.blockNewPurchases": "no" }, 'payments.blockNewPurchases must be a `boolean` type, but the final value was: `"no"`.'],
      [
        { "payments.items.credits": { customerType: "org" } },
        "payments.items.credits.customerType must be one of the following values: user, team, custom",
      ],
      [
        { "payments.productLines.plans.customerType": "org" },
        "payments.productLines.plans.customerType must be one of the following values: user, team, custom",
      ],
      [{ "payments.products.pro.stackable": 1 }, "payments.products.pro.stackable must be a `boolean` type, but the final value was: `1`."],
      [{ "payments.products.pro.isAddOnTo": true }, "payments.products.pro.isAddOnTo is invalid"],
      [{ "payments.products.pro.isAddOnTo": { base: false } }, "payments.products.pro.isAddOnTo.base is invalid"],
      [
        { "payments.products.pro.includedItems.credits.quantity": -1 },
        "payments.products.pro.includedItems.credits.quantity must be greater than or equal to 0",
      ],
      [
        { "payments.products.pro.includedItems.credits.expires": "later" },
        "payments.products.pro.includedItems.credits.expires must be one of the following values: never, when-purchase-expires, when-repeated",
      ],
      [
        { "payments.products.pro.productLineId": 3 },
        "payments.products.pro.productLineId must be a `string` type, but the final value was: `3`.",
      ],
    ];
    for (const [override, message] of cases) expect(refusal("branch", override)).toBe(message);
  });

  it("keep testMode to the environment level", () => {
    validateConfigOverride("environment", { "payments.testMode": false });
    expect(refusal("branch", { "payments.testMode": false })).toBe(
      'The key "payments.testMode" is not valid (nested object not found in schema: "payments.testMode").',
    );
    expect(refusal("branch", { payments: { testMode: false } })).toBe(
      'The key "payments.testMode" is not valid (nested object not found in schema: "payments.testMode").',
    );
  });

  it("accept a whole catalogue", () => {
    validateConfigOverride("branch", {
      payments: {
        blockNewPurchases: false,
        autoPay: { interval: [1, "month"] },
        items: { credits: { displayName: "Credits", customerType: "team" } },
        productLines: { plans: { displayName: "Plans", customerType: "team" } },
        products: {
          pro: {
            displayName: "Pro",
            productLineId: "plans",
            customerType: "team",
            serverOnly: false,
            stackable: true,
            freeTrial: [14, "day"],
            prices: { monthly: { USD: "20", EUR: "18.50", JPY: "3000", interval: [1, "month"], serverOnly: false } },
            includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
          },
          seats: { customerType: "team", isAddOnTo: { pro: true }, prices: { each: { USD: "5" } } },
        },
      },
    });
  });
});

describe("the catalogue across keys", () => {
  const catalogue = {
    "payments.items": { credits: { customerType: "team" }, tokens: {} },
    "payments.productLines": { plans: {}, seats: { customerType: "team" } },
    "payments.products": {
      basic: { productLineId: "plans", prices: { m: { USD: "5" } } },
      pro: { productLineId: "plans", includedItems: { tokens: { quantity: 1 } } },
      teamPlan: { customerType: "team", productLineId: "seats", includedItems: { credits: {} } },
      addon: { isAddOnTo: { basic: true, pro: true } },
    },
  };

  it("has no problem when every name exists and types agree", () => {
    expect(problemsOf(catalogue)).toEqual([]);
  });

  it("finds a product line, add-on base or included item that does not exist", () => {
    expect(paymentsCatalogueProblems(renderConfig({ ...catalogue, "payments.products.basic.productLineId": "nope" }))).toEqual([
      {
        path: "payments.products.basic.productLineId",
        message: 'payments.products.basic.productLineId must name an existing product line ("nope" does not exist)',
        refused: false,
      },
    ]);
    expect(problemsOf({ ...catalogue, "payments.products.addon.isAddOnTo": { basic: true, gone: true } })).toEqual([
      'payments.products.addon.isAddOnTo.gone must name an existing product ("gone" does not exist)',
    ]);
    expect(problemsOf({ ...catalogue, "payments.products.pro.includedItems": { gems: {} } })).toEqual([
      'payments.products.pro.includedItems.gems must name an existing item ("gems" does not exist)',
    ]);
  });

  it("finds a product whose product line or included item is for another customer type", () => {
    expect(problemsOf({ ...catalogue, "payments.products.basic.customerType": "team" })).toEqual([
      // The line has no type of its own: it takes its first product's, so the other product is the odd one out.
      "payments.products.pro.productLineId names a product line for team customers, but the product is for user customers",
    ]);
    expect(problemsOf({ ...catalogue, "payments.products.teamPlan.customerType": "custom" })).toEqual([
      "payments.products.teamPlan.productLineId names a product line for team customers, but the product is for custom customers",
      "payments.products.teamPlan.includedItems.credits names an item for team customers, but the product is for custom customers",
    ]);
  });

  it("takes a product line's type from its products when it has none", () => {
    const config = renderConfig({
      "payments.productLines.plans": {},
      "payments.products.a": { customerType: "team", productLineId: "plans" },
    });
    expect(config.payments.productLines.plans!.customerType).toBe("team");
    expect(paymentsCatalogueProblems(config)).toEqual([]);
  });

  it("finds a price left without a currency by a key written under it", () => {
    const merged = mergeConfigOverrides([
      { "payments.products.pro": { prices: { m: { USD: "5" } } } },
      { "payments.products.pro.prices.m.USD": null, "payments.products.pro.prices.y": { USD: "50" } },
    ]);
    expect(paymentsCatalogueProblems(renderConfig(merged))).toEqual([
      { path: "payments.products.pro.prices.m", message: NO_CURRENCY, refused: true },
    ]);
  });

  it("refuses a change for a price it leaves without a currency, not for one that was so, nor for a name", () => {
    const noCurrency = { ...catalogue, "payments.products.pro.prices": { m: {} } };
    const before = renderConfig(noCurrency);
    const unrelated = renderConfig({ ...noCurrency, "payments.items.more": {} });
    expect(() => refuseNewConfigProblems(before, unrelated)).not.toThrow();
    expect(() => refuseNewConfigProblems(renderConfig(catalogue), before)).toThrow(new StatusError(400, NO_CURRENCY));
    // A name that does not resolve is reported, never refused: a product may be written before its item.
    const unresolved = renderConfig({ ...catalogue, "payments.products.pro.productLineId": "gone", "payments.items": {} });
    expect(() => refuseNewConfigProblems(renderConfig(catalogue), unresolved)).not.toThrow();
    expect(paymentsCatalogueProblems(unresolved).every((problem) => !problem.refused)).toBe(true);
  });
});

describe("rendering the catalogue", () => {
  it("shows an item's and a product's id as its display name until one is set", () => {
    const config = renderConfig({
      "payments.items": { credits: {}, gems: { displayName: "Gems" } },
      "payments.products": { pro: { prices: { m: { USD: "1" } } }, max: { displayName: "Max" } },
    });
    expect(config.payments.items).toEqual({
      credits: { displayName: "credits", customerType: "user" },
      gems: { displayName: "Gems", customerType: "user" },
    });
    expect(config.payments.products.pro!.displayName).toBe("pro");
    expect(config.payments.products.max!.displayName).toBe("Max");
  });

  it("fills a product's defaults", () => {
    expect(renderConfig({ "payments.products.pro": {} }).payments.products.pro).toEqual({
      displayName: "pro",
      customerType: "user",
      isAddOnTo: false,
      serverOnly: false,
      stackable: false,
      prices: {},
      includedItems: {},
    });
    const included = renderConfig({
      "payments.products.pro.includedItems.credits": {},
      "payments.products.pro": { includedItems: { credits: {} } },
    });
    expect(included.payments.products.pro!.includedItems.credits).toEqual({ quantity: 0, repeat: "never", expires: "when-repeated" });
    expect(renderConfig({}).payments).toMatchObject({
      blockNewPurchases: false,
      testMode: true,
      items: {},
      productLines: {},
      products: {},
    });
  });

  it("places a dotted price under a product written earlier, even before it had prices", () => {
    const config = renderConfig(
      mergeConfigOverrides([{ "payments.products.pro": {} }, { "payments.products.pro.prices.m": { USD: "5" } }]),
    );
    expect(config.payments.products.pro!.prices).toEqual({ m: { USD: "5", serverOnly: false } });
  });
});

describe("older names", () => {
  it("are carried over before the check, so their values are checked the same", () => {
    const written = (override: ConfigOverride) => refusal("branch", migrateConfigOverride("branch", override));
    expect(written({ payments: { offers: { pro: { prices: { m: { USD: "01" } } } } } })).toBe(LEADING_ZEROS);
    expect(written({ "payments.offers.pro.prices.m.USD": "1.999" })).toBe("Too many decimals; USD only has 2 decimals");
    expect(written({ "payments.offers.pro.prices.m": { interval: [1, "month"] } })).toBe(NO_CURRENCY);
    expect(written({ "payments.groups.-x": {} })).toBe('payments.productLines has an invalid key: "-x"');
    expect(written({ payments: { catalogs: { plans: { customerType: "org" } } } })).toBe(
      "payments.productLines.plans.customerType must be one of the following values: user, team, custom",
    );
    expect(written({ "payments.offers.pro.groupId": 5 })).toBe(
      "payments.products.pro.productLineId must be a `string` type, but the final value was: `5`.",
    );
  });

  it("make a catalogue like the current names do", () => {
    const old = migrateConfigOverride("branch", {
      payments: {
        groups: { plans: {} },
        offers: { pro: { groupId: "plans", prices: { m: { USD: "10" } } }, boost: { catalogId: "extras" } },
      },
      "payments.catalogs.extras": {},
      "payments.offers.max": { catalogId: "plans" },
    });
    validateConfigOverride("branch", old);
    const config = renderConfig(old);
    expect(paymentsCatalogueProblems(config)).toEqual([]);
    expect(Object.keys(config.payments.productLines).sort()).toEqual(["extras", "plans"]);
    expect(config.payments.products.pro!.productLineId).toBe("plans");
    expect(config.payments.products.boost!.productLineId).toBe("extras");
    expect(config.payments.products.max!.productLineId).toBe("plans");
  });
});
