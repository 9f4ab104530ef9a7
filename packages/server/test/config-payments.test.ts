/**
 * The payments catalogue through the config API: a bad one refused with a
 * plain-text 400 that changes nothing, a good one stored and rendered, older
 * names carried over, and names across levels and writes stored even before
 * what they name (the dashboard reports them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mainBranch, readOverrides, renderOverrides, saveOverride } from "../src/domain/config/store.ts";
import { storedOverrides } from "./config-fixtures.ts";
import { createProject, expectPlainError, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

function write(p: Project, level: string, value: unknown, method: "PATCH" | "PUT" = "PATCH") {
  const body =
    method === "PATCH"
      ? { config_override_string: JSON.stringify(value) }
      : { config_string: JSON.stringify(value), source: { type: "pushed-from-unknown" } };
  return server.request(`/internal/config/override/${level}`, { method, as: p.ownerAdmin, body });
}

async function written(p: Project, level: string, value: unknown, method: "PATCH" | "PUT" = "PATCH") {
  const res = await write(p, level, value, method);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ success: true });
}

async function rendered(p: Project): Promise<any> {
  const res = await server.request("/internal/config", { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string as string);
}

/** Each write is refused with exactly `message`, and the stored overrides stay as they were. */
async function refused(p: Project, cases: [string, unknown, string][], method: "PATCH" | "PUT" = "PATCH") {
  const before = await storedOverrides(server, p.id);
  for (const [level, value, message] of cases) {
    const res = await write(p, level, value, method);
    expectPlainError(res, 400);
    expect(res.text).toBe(message);
  }
  expect(await storedOverrides(server, p.id)).toEqual(before);
}

const catalogue = {
  items: { credits: { displayName: "Credits", customerType: "team" } },
  productLines: { plans: { customerType: "team" } },
  products: {
    pro: {
      productLineId: "plans",
      customerType: "team",
      prices: { monthly: { USD: "20", JPY: "3000", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 100, repeat: [1, "month"] } },
    },
    seats: { customerType: "team", isAddOnTo: { pro: true }, prices: { each: { EUR: "4.50" } } },
  },
};

describe("PATCH /internal/config/override/{level} with a payments catalogue", () => {
  it("stores a good catalogue and renders it with its defaults", async () => {
    const p = await createProject(server);
    await written(p, "branch", { payments: catalogue });
    await written(p, "environment", { "payments.testMode": false, "payments.blockNewPurchases": true });
    const { payments } = await rendered(p);
    expect(payments.testMode).toBe(false);
    expect(payments.blockNewPurchases).toBe(true);
    expect(payments.items.credits).toEqual({ displayName: "Credits", customerType: "team" });
    expect(payments.products.pro).toEqual({
      displayName: "pro",
      productLineId: "plans",
      customerType: "team",
      isAddOnTo: false,
      serverOnly: false,
      stackable: false,
      prices: { monthly: { USD: "20", JPY: "3000", interval: [1, "month"], serverOnly: false } },
      includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
    });
    expect(payments.products.seats.isAddOnTo).toEqual({ pro: true });
  });

  it("refuses bad amounts, prices, ids and intervals with their messages, and changes nothing", async () => {
    const p = await createProject(server);
    await written(p, "branch", { payments: catalogue });
    await refused(p, [
      [
        "branch",
        { "payments.products.pro.prices.monthly.USD": "20.5.0" },
        "Money amount must be in the format of <number> or <number>.<number>",
      ],
      ["environment", { payments: { products: { x: { prices: { m: { USD: "9.999" } } } } } }, "Too many decimals; USD only has 2 decimals"],
      ["branch", { "payments.products.pro.prices.monthly": { JPY: "300.5" } }, "Too many decimals; JPY only has 0 decimals"],
      ["branch", { "payments.products.pro.prices.yearly": { USD: "0200" } }, "Money amount must not have leading zeros"],
      ["branch", { "payments.products.pro.prices.yearly": { interval: [1, "year"] } }, "At least one currency is required"],
      ["branch", { "payments.items._fast-": {}, "payments.items.-fast": {} }, 'payments.items has an invalid key: "-fast"'],
      [
        "branch",
        { payments: { products: { pro: { prices: { "-m": { USD: "1" } } } } } },
        'payments.products.pro.prices has an invalid key: "-m"',
      ],
      [
        "branch",
        { "payments.products.pro.freeTrial": [-7, "day"] },
        "payments.products.pro.freeTrial[0] must be greater than or equal to 0",
      ],
      [
        "environment",
        { "payments.products.pro.includedItems.credits.repeat": [1, "hour"] },
        "payments.products.pro.includedItems.credits.repeat[1] must be one of the following values: day, week, month, year",
      ],
      [
        "branch",
        { "payments.testMode": false },
        'The key "payments.testMode" is not valid (nested object not found in schema: "payments.testMode").',
      ],
    ]);
    // A PUT is checked the same.
    await refused(
      p,
      [["branch", { payments: { products: { x: { prices: { m: { GBP: "01.00" } } } } } }, "Money amount must not have leading zeros"]],
      "PUT",
    );
  });

  it("stores names that do not resolve (a product may come before its item), and refuses a price left without a currency", async () => {
    const p = await createProject(server);
    // A product naming an item and a line not written yet: stored, as the reference stores it (WIRE-next §1.3).
    await written(p, "environment", { "payments.products": catalogue.products });
    expect((await rendered(p)).payments.products.pro.includedItems.credits.quantity).toBe(100);
    // The items and lines arrive later, at another level.
    await written(p, "branch", { "payments.items": catalogue.items, "payments.productLines": catalogue.productLines });
    await written(p, "environment", { "payments.products.basic": { productLineId: "nope" } });
    await written(p, "branch", { "payments.items.credits.customerType": "user" });
    await refused(p, [
      [
        "environment",
        { "payments.products.pro.prices.monthly.USD": null, "payments.products.pro.prices.monthly.JPY": null },
        "At least one currency is required",
      ],
    ]);
    // Taking the items away is a write like any other.
    const reset = await server.request("/internal/config/override/branch/reset-keys", {
      method: "POST",
      as: p.ownerAdmin,
      body: { keys: ["payments.items"] },
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await rendered(p)).payments.items).toEqual({});
  });

  it("does not hold an unrelated write to a price without a currency stored before", async () => {
    const p = await createProject(server);
    // A catalogue stored before its rules were checked: a price with no currency.
    const t = mainBranch(p.id);
    const stored = await readOverrides(server.instance.services.db, t);
    const older = { "payments.products.legacy": { prices: { m: { interval: [1, "month"] } } } };
    await saveOverride(
      server.instance.services.db,
      server.instance.services.config.serverSecret,
      t,
      "environment",
      older,
      renderOverrides(stored),
    );
    await written(p, "environment", { "auth.allowSignUp": false, "payments.items.more": {} });
    expect((await rendered(p)).payments.products.legacy.prices.m.interval).toEqual([1, "month"]);
    // A write that adds a problem of its own is still refused.
    await refused(p, [["environment", { "payments.products.other": { prices: { m: {} } } }, "At least one currency is required"]]);
  });

  it("carries older names over: offers, groups, catalogs, groupId and catalogId", async () => {
    const p = await createProject(server);
    await written(p, "branch", {
      payments: { groups: { plans: {} }, offers: { pro: { groupId: "plans", prices: { m: { USD: "10" } } } } },
      "payments.catalogs.extras": {},
      "payments.offers.boost": { catalogId: "extras", isAddOnTo: { pro: true } },
    });
    const stored = await server.request("/internal/config/override/branch", { as: p.ownerAdmin });
    expect(JSON.parse(stored.body.config_string as string)).toEqual({
      payments: { productLines: { plans: {} }, products: { pro: { productLineId: "plans", prices: { m: { USD: "10" } } } } },
      "payments.productLines.extras": {},
      "payments.products.boost": { productLineId: "extras", isAddOnTo: { pro: true } },
    });
    const { payments } = await rendered(p);
    expect(payments.productLines).toEqual({ plans: { customerType: "user" }, extras: { customerType: "user" } });
    expect(payments.products.boost.productLineId).toBe("extras");
    // Under the older names the values are checked the same.
    await refused(p, [
      ["branch", { "payments.offers.pro.prices.m.USD": "1.001" }, "Too many decimals; USD only has 2 decimals"],
      ["environment", { payments: { catalogs: { "-9": {} } } }, 'payments.productLines has an invalid key: "-9"'],
    ]);
  });
});
