/**
 * Payment transactions and refunds (WIRE-next §5.6): the admin list of
 * purchases, item changes and refunds (entry shapes, newest first, cursor
 * pages, filters), and refunding subscriptions and one-time purchases with
 * the reference's checks and messages. Purchases paid through Stripe are
 * written straight into the table (nothing else makes them yet).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentPurchases, paymentRefunds } from "../src/capabilities/payments/schema.ts";
import { createProject, expectPlainError, signUpUser, UNKNOWN_UUID, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;

const PAYMENTS = {
  items: { credits: { displayName: "Credits" }, seats: {}, "team-seats": { customerType: "team" }, tokens: { customerType: "custom" } },
  products: {
    sub: { displayName: "Sub", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
    once: {
      displayName: "Once",
      prices: { single: { USD: "50" } },
      includedItems: { credits: { quantity: 4, expires: "when-purchase-expires" } },
    },
    packs: {
      stackable: true,
      prices: { each: { USD: "12.50", EUR: "11" } },
      includedItems: { seats: { quantity: 1, expires: "when-purchase-expires" } },
    },
    "team-plan": { customerType: "team", prices: { single: { USD: "5" } } },
  },
};

async function newProject(payments: Record<string, unknown> = PAYMENTS) {
  const p = await createProject(server);
  const res = await server.request("/internal/config/override/environment", {
    method: "PATCH",
    as: p.admin,
    body: { config_override_string: JSON.stringify(Object.fromEntries(Object.entries(payments).map(([k, v]) => [`payments.${k}`, v]))) },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

const list = (p: Project, query?: Record<string, string>) => server.request("/internal/payments/transactions", { as: p.admin, query });
const refund = (p: Project, body: unknown) =>
  server.request("/internal/payments/transactions/refund", { method: "POST", as: p.admin, body });
const grant = async (p: Project, userId: string, body: Record<string, unknown>, type = "user") => {
  const res = await server.request(`/payments/products/${type}/${userId}`, { method: "POST", as: p.server, body });
  expect(res.status, res.text).toBe(200);
};
const owned = async (p: Project, userId: string) => {
  const res = await server.request(`/payments/products/user/${userId}`, { as: p.server });
  expect(res.status, res.text).toBe(200);
  return res.body.items as { id: string }[];
};
const quantity = async (p: Project, userId: string, item: string) =>
  (await server.request(`/payments/items/user/${userId}/${item}`, { as: p.server })).body.quantity as number;
const changeItem = async (p: Project, type: string, id: string, item: string, delta: number) => {
  const res = await server.request(`/payments/items/${type}/${id}/${item}/update-quantity`, {
    method: "POST",
    as: p.server,
    query: { allow_negative: "true" },
    body: { delta },
  });
  expect(res.status, res.text).toBe(200);
};
/** The id of the latest purchase of the project (its purchase transaction's id). */
const latestPurchase = async (p: Project) => {
  const res = await list(p, { type: "purchase", limit: "1" });
  expect(res.status, res.text).toBe(200);
  return res.body.transactions[0].id as string;
};
const testModeBuy = async (p: Project, userId: string, productId: string, priceId: string) => {
  const url = await server.request("/payments/purchases/create-purchase-url", {
    method: "POST",
    as: p.server,
    body: { customer_type: "user", customer_id: userId, product_id: productId },
  });
  expect(url.status, url.text).toBe(200);
  const full_code = new URL(url.body.url).pathname.split("/").pop();
  const bought = await server.request("/internal/payments/test-mode-purchase-session", {
    method: "POST",
    body: { full_code, price_id: priceId, quantity: 1 },
  });
  expect(bought.status, bought.text).toBe(200);
  return latestPurchase(p);
};
/** A one-time purchase as the Stripe integration will record it (paid, not test mode): a grant, then marked paid. */
const stripePurchase = async (p: Project, userId: string, productId: "once" | "packs", qty: number) => {
  await grant(p, userId, { product_id: productId, quantity: qty });
  const id = await latestPurchase(p);
  await server.instance.services.db
    .update(paymentPurchases)
    .set({ source: "stripe", testMode: false })
    .where(and(eq(paymentPurchases.projectId, p.id), eq(paymentPurchases.id, id)));
  return id;
};
const refundsOf = (p: Project) => server.instance.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.projectId, p.id));

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

describe("listing transactions", () => {
  it("a fresh project has none", async () => {
    const p = await newProject();
    const res = await list(p);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ transactions: [], next_cursor: null });
  });

  it("a test-mode subscription and one-time purchase are product grants in test mode, without money", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const subId = await testModeBuy(p, user.userId, "sub", "monthly");
    server.clock.advance(5);
    const onceId = await testModeBuy(p, user.userId, "once", "single");
    const res = await list(p);
    expect(res.status, res.text).toBe(200);
    const product = (name: string, prices: unknown, included: unknown) => ({
      display_name: name,
      customer_type: "user",
      server_only: false,
      stackable: false,
      prices,
      included_items: included,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
    });
    expect(res.body.transactions).toEqual([
      {
        id: onceId,
        type: "purchase",
        created_at_millis: expect.any(Number),
        effective_at_millis: expect.any(Number),
        test_mode: true,
        adjusted_by: [],
        entries: [
          {
            type: "product_grant",
            adjusted_transaction_id: null,
            adjusted_entry_index: null,
            customer_type: "user",
            customer_id: user.userId,
            product_id: "once",
            product: product(
              "Once",
              { single: { USD: "50" } },
              { credits: { quantity: 4, repeat: "never", expires: "when-purchase-expires" } },
            ),
            price_id: "single",
            quantity: 1,
            one_time_purchase_id: onceId,
          },
        ],
      },
      {
        id: subId,
        type: "purchase",
        created_at_millis: expect.any(Number),
        effective_at_millis: expect.any(Number),
        test_mode: true,
        adjusted_by: [],
        entries: [
          {
            type: "product_grant",
            adjusted_transaction_id: null,
            adjusted_entry_index: null,
            customer_type: "user",
            customer_id: user.userId,
            product_id: "sub",
            product: product("Sub", { monthly: { USD: "10", interval: [1, "month"] } }, {}),
            price_id: "monthly",
            quantity: 1,
            subscription_id: subId,
          },
        ],
      },
    ]);
    expect(res.body.transactions[0].created_at_millis).toBeGreaterThanOrEqual(res.body.transactions[1].created_at_millis + 5);
  });

  it("an item change is a manual item quantity change; a paid purchase adds a money transfer of price × quantity", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await changeItem(p, "user", user.userId, "credits", -3);
    server.clock.advance(1);
    const paidId = await stripePurchase(p, user.userId, "packs", 2);
    const res = await list(p);
    expect(res.status, res.text).toBe(200);
    const [paid, change] = res.body.transactions;
    expect(paid).toMatchObject({ id: paidId, type: "purchase", test_mode: false });
    expect(paid.entries[1]).toEqual({
      type: "money_transfer",
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      customer_type: "user",
      customer_id: user.userId,
      charged_amount: { USD: "25", EUR: "22" },
      net_amount: { USD: "25" },
    });
    expect(change).toEqual({
      id: expect.any(String),
      type: "manual-item-quantity-change",
      created_at_millis: expect.any(Number),
      effective_at_millis: change.created_at_millis,
      test_mode: false,
      adjusted_by: [],
      entries: [
        {
          type: "item_quantity_change",
          adjusted_transaction_id: null,
          adjusted_entry_index: null,
          customer_type: "user",
          customer_id: user.userId,
          item_id: "credits",
          quantity: -3,
        },
      ],
    });
  });

  it("pages newest first by cursor across all sources, also within one millisecond, and filters by type and customer type", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const team = await server.request("/teams", { method: "POST", as: p.server, body: { display_name: "T" } });
    expect(team.status, team.text).toBe(201);
    server.clock.freeze();
    try {
      await changeItem(p, "user", user.userId, "credits", 1);
      await changeItem(p, "user", user.userId, "credits", 2);
      await grant(p, user.userId, { product_id: "packs", quantity: 2 });
      await grant(p, team.body.id, { product_id: "team-plan" }, "team");
      server.clock.advance(1);
      await changeItem(p, "team", team.body.id, "team-seats", 3);
      await changeItem(p, "custom", "acme", "tokens", 4);
      const packsId = (await list(p, { type: "purchase", customer_type: "user" })).body.transactions[0].id;
      expect(
        (await refund(p, { type: "one-time-purchase", id: packsId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }] }))
          .status,
      ).toBe(200);
    } finally {
      server.clock.resume();
    }
    const all = await list(p);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.transactions.map((t: { type: string }) => t.type)).toEqual([
      "refund",
      "manual-item-quantity-change",
      "manual-item-quantity-change",
      "purchase",
      "purchase",
      "manual-item-quantity-change",
      "manual-item-quantity-change",
    ]);
    const times = all.body.transactions.map((t: { created_at_millis: number }) => t.created_at_millis);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    for (const limit of ["1", "2", "3"]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = await list(p, { limit, ...(cursor ? { cursor } : {}) });
        expect(page.status, page.text).toBe(200);
        expect(page.body.transactions.length).toBeLessThanOrEqual(Number(limit));
        seen.push(...page.body.transactions.map((t: { id: string }) => t.id));
        cursor = page.body.next_cursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen).toEqual(all.body.transactions.map((t: { id: string }) => t.id));
    }

    const ids = (res: Awaited<ReturnType<typeof list>>) => res.body.transactions.map((t: { type: string }) => t.type);
    expect(ids(await list(p, { type: "purchase" }))).toEqual(["purchase", "purchase"]);
    expect(ids(await list(p, { type: "refund" }))).toEqual(["refund"]);
    expect(ids(await list(p, { type: "manual-item-quantity-change" }))).toHaveLength(4);
    expect(ids(await list(p, { type: "chargeback" }))).toEqual([]);
    const teams = await list(p, { customer_type: "team" });
    expect(teams.body.transactions.map((t: { entries: { customer_id: string }[] }) => t.entries[0]!.customer_id)).toEqual([
      team.body.id,
      team.body.id,
    ]);
    expect(ids(await list(p, { customer_type: "custom" }))).toEqual(["manual-item-quantity-change"]);
    // The refund is the user's: listed with the user's, revoking the user's purchase.
    expect(ids(await list(p, { customer_type: "user" }))).toEqual([
      "refund",
      "purchase",
      "manual-item-quantity-change",
      "manual-item-quantity-change",
    ]);
  });

  it("a cancelled subscription is listed when it was cancelled, revoking the grant at its period's end", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "sub" });
    const subId = await latestPurchase(p);
    server.clock.advance(1000);
    const cancelled = await server.request(`/payments/products/user/${user.userId}/sub`, { method: "DELETE", as: p.server });
    expect(cancelled.status, cancelled.text).toBe(200);
    const res = await list(p);
    const [cancellation, purchase] = res.body.transactions;
    expect(cancellation).toEqual({
      id: `${subId}:cancellation`,
      type: "subscription-cancellation",
      created_at_millis: expect.any(Number),
      effective_at_millis: expect.any(Number),
      test_mode: false,
      adjusted_by: [],
      entries: [{ type: "product_revocation", adjusted_transaction_id: subId, adjusted_entry_index: 0, quantity: 1 }],
    });
    expect(cancellation.created_at_millis).toBeGreaterThanOrEqual(purchase.created_at_millis + 1000);
    // Ours renew monthly (30 days): the cancellation takes effect at the first period's end.
    expect(cancellation.effective_at_millis).toBe(purchase.created_at_millis + 30 * 24 * 60 * 60 * 1000);
    expect(purchase).toMatchObject({ id: subId, adjusted_by: [{ transaction_id: `${subId}:cancellation`, entry_index: 0 }] });
    expect((await list(p, { type: "subscription-cancellation" })).body.transactions.map((t: { id: string }) => t.id)).toEqual([
      `${subId}:cancellation`,
    ]);
    expect((await list(p, { customer_type: "team" })).body.transactions).toEqual([]);
    const first = await list(p, { limit: "1" });
    const second = await list(p, { limit: "1", cursor: first.body.next_cursor });
    expect([first.body.transactions[0].id, second.body.transactions[0].id]).toEqual([`${subId}:cancellation`, subId]);
    expect(second.body.next_cursor).toBeNull();

    // Still refundable until it ends: the refund is listed beside the cancellation.
    const refunded = await refund(p, {
      type: "subscription",
      id: subId,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }],
    });
    expect(refunded.status, refunded.text).toBe(200);
    const after = (await list(p, { type: "purchase" })).body.transactions[0];
    expect(after.adjusted_by).toEqual([
      { transaction_id: `${subId}:cancellation`, entry_index: 0 },
      { transaction_id: expect.any(String), entry_index: 0 },
    ]);
  });

  it("limit defaults to 50 and is clamped to 1…200", async () => {
    const p = await newProject();
    for (let i = 0; i < 52; i++) {
      await changeItem(p, "custom", "c", "tokens", 1);
      server.clock.advance(1);
    }
    const byDefault = await list(p);
    expect(byDefault.body.transactions).toHaveLength(50);
    expect(byDefault.body.next_cursor).toEqual(expect.any(String));
    expect((await list(p, { limit: "0" })).body.transactions).toHaveLength(1);
    expect((await list(p, { limit: "1000" })).body.transactions).toHaveLength(52);
    expect((await list(p, { limit: "many" })).body.transactions).toHaveLength(50);
  });

  it("refuse a bad cursor, an unknown type, non-admin access; another project's are not listed", async () => {
    const p = await newProject();
    await changeItem(p, "custom", "c", "tokens", 1);
    for (const cursor of ["nope", `1.9.${UNKNOWN_UUID}`, `12.1.not-a-uuid`]) {
      expectPlainError(await list(p, { cursor }), 400, /^Invalid cursor$/);
    }
    expectKnownError(await list(p, { type: "gift" }), "SCHEMA_ERROR", 400);
    expectKnownError(await list(p, { customer_type: "org" }), "SCHEMA_ERROR", 400);
    expectKnownError(await server.request("/internal/payments/transactions", { as: p.server }), "INSUFFICIENT_ACCESS_TYPE", 401);
    const other = await newProject();
    expect((await list(other)).body.transactions).toEqual([]);
  });
});

describe("refunds", () => {
  it("refund an API-granted one-time purchase: revokes it (and what it includes) and lists a product revocation", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "packs", quantity: 3 });
    const purchaseId = await latestPurchase(p);
    expect(await quantity(p, user.userId, "seats")).toBe(3);
    const res = await refund(p, {
      type: "one-time-purchase",
      id: purchaseId,
      refund_entries: [{ entry_index: 0, quantity: 2, amount_usd: "0" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await owned(p, user.userId)).toEqual([]);
    expect(await quantity(p, user.userId, "seats")).toBe(0);

    const [refundTx, purchaseTx] = (await list(p)).body.transactions;
    expect(refundTx).toEqual({
      id: expect.any(String),
      type: "refund",
      created_at_millis: expect.any(Number),
      effective_at_millis: refundTx.created_at_millis,
      test_mode: false,
      adjusted_by: [],
      entries: [{ type: "product_revocation", adjusted_transaction_id: purchaseId, adjusted_entry_index: 0, quantity: 2 }],
    });
    expect(purchaseTx.adjusted_by).toEqual([{ transaction_id: refundTx.id, entry_index: 0 }]);

    expectKnownError(
      await refund(p, { type: "one-time-purchase", id: purchaseId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }] }),
      "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
      400,
    );
    expect(await refundsOf(p)).toHaveLength(1);
  });

  it("refund an API-granted subscription; a second refund is refused", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "sub" });
    const subId = await latestPurchase(p);
    const res = await refund(p, { type: "subscription", id: subId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }] });
    expect(res.status, res.text).toBe(200);
    expect(await owned(p, user.userId)).toEqual([]);
    const again = await refund(p, { type: "subscription", id: subId, refund_entries: [] });
    expectKnownError(again, "SUBSCRIPTION_ALREADY_REFUNDED", 400);
    expect(again.body.details).toEqual({ subscription_id: subId });
  });

  it("refund money of a paid purchase only through the payment provider; without one the money part is refused plainly", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "once" });
    const grantedId = await latestPurchase(p);
    expectPlainError(
      await refund(p, { type: "one-time-purchase", id: grantedId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "10" }] }),
      400,
      /^This purchase was granted, not paid for: there is no payment to refund\.$/,
    );
    expect(await owned(p, user.userId)).toHaveLength(1);
    expect(await refundsOf(p)).toEqual([]);

    // A paid purchase may be revoked without money; the money transfer entry is not refundable as an entry.
    const paidId = await stripePurchase(p, user.userId, "packs", 1);
    expect(
      (await refund(p, { type: "one-time-purchase", id: paidId, refund_entries: [{ entry_index: 1, quantity: 0, amount_usd: "0" }] })).body
        .error,
    ).toBe("Refund entries must reference product grant entries.");
    const revoked = await refund(p, {
      type: "one-time-purchase",
      id: paidId,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }],
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await refundsOf(p))[0]).toMatchObject({ purchaseId: paidId, amountMinorUnits: 0 });
  });

  it("refuse unknown purchases (also of the other kind or another project), and test-mode ones", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const entries = [{ entry_index: 0, quantity: 1, amount_usd: "0" }];
    const missingSub = await refund(p, { type: "subscription", id: UNKNOWN_UUID, refund_entries: entries });
    expectKnownError(missingSub, "SUBSCRIPTION_INVOICE_NOT_FOUND", 404);
    expect(missingSub.body.error).toBe(`Subscription invoice with ID "${UNKNOWN_UUID}" does not exist.`);
    expectKnownError(
      await refund(p, { type: "one-time-purchase", id: "not-a-uuid", refund_entries: entries }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
      404,
    );

    const subId = await testModeBuy(p, user.userId, "sub", "monthly");
    const onceId = await testModeBuy(p, user.userId, "once", "single");
    expectKnownError(await refund(p, { type: "subscription", id: subId, refund_entries: entries }), "SUBSCRIPTION_INVOICE_NOT_FOUND", 404);
    const testOnce = await refund(p, { type: "one-time-purchase", id: onceId, refund_entries: entries });
    expectKnownError(testOnce, "TEST_MODE_PURCHASE_NON_REFUNDABLE", 400);
    expect(testOnce.body.error).toBe("Test mode purchases are not refundable.");
    expectKnownError(await refund(p, { type: "subscription", id: onceId, refund_entries: entries }), "SUBSCRIPTION_INVOICE_NOT_FOUND", 404);
    expectKnownError(
      await refund(p, { type: "one-time-purchase", id: subId, refund_entries: entries }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
      404,
    );

    await grant(p, user.userId, { product_id: "packs" });
    const grantedId = await latestPurchase(p);
    const other = await newProject();
    expectKnownError(
      await refund(other, { type: "one-time-purchase", id: grantedId, refund_entries: entries }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
      404,
    );
    expectKnownError(
      await server.request("/internal/payments/transactions/refund", {
        method: "POST",
        as: p.server,
        body: { type: "one-time-purchase", id: grantedId, refund_entries: entries },
      }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    expect(await owned(p, user.userId)).toHaveLength(3);
    expect(await refundsOf(p)).toEqual([]);
  });

  it("refuse bad entries with the reference's messages, changing nothing", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "packs", quantity: 2 });
    const id = await latestPurchase(p);
    const attempt = (refund_entries: unknown) => refund(p, { type: "one-time-purchase", id, refund_entries });
    const cases: [unknown, string][] = [
      [[{ entry_index: 0, quantity: -1, amount_usd: "0" }], "Refund quantity cannot be negative."],
      [
        [
          { entry_index: 0, quantity: 1, amount_usd: "0" },
          { entry_index: 0, quantity: 1, amount_usd: "0" },
        ],
        "Refund entries cannot contain duplicate entry indexes.",
      ],
      [[{ entry_index: 999, quantity: 1, amount_usd: "0" }], "Refund entry index is invalid."],
      [[{ entry_index: -1, quantity: 1, amount_usd: "0" }], "Refund entry index is invalid."],
      [[{ entry_index: 0, quantity: 3, amount_usd: "0" }], "Refund quantity cannot exceed purchased quantity."],
      [[{ entry_index: 0, quantity: 1, amount_usd: "25.01" }], "Refund amount cannot exceed the charged amount."],
    ];
    for (const [entries, message] of cases) {
      const res = await attempt(entries);
      expectKnownError(res, "SCHEMA_ERROR", 400);
      expect(res.body).toEqual({ code: "SCHEMA_ERROR", details: { message }, error: message });
    }
    for (const amount of ["-1", "1.234", "01", "ten"]) {
      const res = await attempt([{ entry_index: 0, quantity: 1, amount_usd: amount }]);
      const text =
        "Request validation failed on POST /api/v1/internal/payments/transactions/refund:\n  - Money amount must be in the format of <number> or <number>.<number>";
      expect(res.body, amount).toEqual({ code: "SCHEMA_ERROR", details: { message: text }, error: text });
    }
    expectKnownError(await attempt([{ entry_index: 0, quantity: 1.5, amount_usd: "0" }]), "SCHEMA_ERROR", 400);
    expectKnownError(await refund(p, { type: "gift", id, refund_entries: [] }), "SCHEMA_ERROR", 400);
    expectKnownError(await refund(p, { type: "one-time-purchase", id }), "SCHEMA_ERROR", 400);
    expect(await owned(p, user.userId)).toHaveLength(1);
    expect(await refundsOf(p)).toEqual([]);
    const [row] = await server.instance.services.db
      .select()
      .from(paymentPurchases)
      .where(and(eq(paymentPurchases.projectId, p.id), eq(paymentPurchases.id, id)));
    expect(row!.endedAt).toBeNull();
  });

  it("two refunds of one purchase at once: exactly one succeeds", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    await grant(p, user.userId, { product_id: "once" });
    const id = await latestPurchase(p);
    const body = { type: "one-time-purchase", id, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }] };
    const results = await Promise.all([refund(p, body), refund(p, body), refund(p, body)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, "ONE_TIME_PURCHASE_ALREADY_REFUNDED", 400);
    expect(await refundsOf(p)).toHaveLength(1);
  });
});
