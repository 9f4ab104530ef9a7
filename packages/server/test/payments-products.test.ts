/**
 * Products and test-mode purchases (WIRE-next §5.2, §5.4, §5.5): granting,
 * listing and cancelling a customer's products, what they include reaching
 * the item ledger, the payments test clock, and buying through a purchase
 * URL in test mode (create-purchase-url → validate-code →
 * test-mode-purchase-session), with the reference's messages and order.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteExpiredPurchaseCodes } from "../src/capabilities/payments/domain/purchase-codes.ts";
import { paymentPurchaseCodes, paymentPurchases } from "../src/capabilities/payments/schema.ts";
import { outboxEvents } from "../src/db/schema/index.ts";
import { createProject, expectPlainError, signUpUser, UNKNOWN_UUID, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;

const DAY = 24 * 60 * 60 * 1000;
const monthly = { USD: "1000", interval: [1, "month"] };

const PAYMENTS = {
  items: { credits: { displayName: "Credits" }, tokens: {}, seats: {}, "team-seats": { customerType: "team" } },
  productLines: { plans: { customerType: "user" } },
  products: {
    pro: {
      displayName: "Pro",
      productLineId: "plans",
      prices: { monthly },
      includedItems: {
        credits: { quantity: 5, repeat: [1, "month"], expires: "never" },
        tokens: { quantity: 3, repeat: [1, "month"], expires: "when-repeated" },
      },
    },
    premium: {
      displayName: "Premium",
      productLineId: "plans",
      prices: { monthly: { USD: "2000", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 7, repeat: "never", expires: "when-purchase-expires" } },
    },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "5000" } }, includedItems: { seats: { quantity: 2, expires: "never" } } },
    "line-lifetime": { productLineId: "plans", prices: { once: { USD: "9000" } } },
    "server-plan": { serverOnly: true, prices: { monthly } },
    seats: { stackable: true, prices: { monthly }, includedItems: { seats: { quantity: 1, expires: "when-purchase-expires" } } },
    "team-plan": { customerType: "team", prices: { monthly } },
    addon: { isAddOnTo: { pro: true }, prices: { once: { USD: "100" } } },
  },
};

async function configure(p: Project, payments: Record<string, unknown>) {
  const res = await server.request("/internal/config/override/environment", {
    method: "PATCH",
    as: p.admin,
    body: { config_override_string: JSON.stringify(Object.fromEntries(Object.entries(payments).map(([k, v]) => [`payments.${k}`, v]))) },
  });
  expect(res.status, res.text).toBe(200);
}

async function newProject(payments: Record<string, unknown> = PAYMENTS) {
  const p = await createProject(server);
  await configure(p, payments);
  return p;
}

const productsPath = (type: string, id: string) => `/payments/products/${type}/${id}`;
const grant = (as: Auth, userId: string, body: unknown, type = "user") =>
  server.request(productsPath(type, userId), { method: "POST", as, body });
const list = (as: Auth, userId: string, query?: Record<string, string | number>, type = "user") =>
  server.request(productsPath(type, userId), { as, query });
const cancel = (as: Auth, userId: string, productId: string) =>
  server.request(`${productsPath("user", userId)}/${productId}`, { method: "DELETE", as });
const quantity = async (as: Auth, userId: string, item: string) => {
  const res = await server.request(`/payments/items/user/${userId}/${item}`, { as });
  expect(res.status, res.text).toBe(200);
  return res.body.quantity as number;
};
const advance = (p: Project, ms: number) =>
  server.request("/internal/payments/test-clock/advance", { method: "POST", as: p.admin, body: { ms } });
const purchaseUrl = (as: Auth, body: Record<string, unknown>) =>
  server.request("/payments/purchases/create-purchase-url", { method: "POST", as, body });
const codeOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const validate = (body: unknown) => server.request("/payments/purchases/validate-code", { method: "POST", body });
const testModeBuy = (body: unknown) => server.request("/internal/payments/test-mode-purchase-session", { method: "POST", body });

beforeAll(async () => {
  server = await createTestServer();
  project = await newProject();
});
afterAll(() => server?.close());

describe("granting and listing", () => {
  it("grant a subscription product and list it for the user's own client, with its subscription", async () => {
    const user = await signUpUser(server, project);
    const res = await grant(project.server, user.userId, { product_id: "pro" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, subscription_id: expect.any(String) });
    const listed = await list(user.as, user.userId);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      is_paginated: true,
      pagination: { next_cursor: null },
      items: [
        {
          id: "pro",
          quantity: 1,
          type: "subscription",
          subscription: {
            subscription_id: res.body.subscription_id,
            current_period_end: expect.any(String),
            cancel_at_period_end: false,
            is_cancelable: true,
          },
          switch_options: [
            {
              product_id: "premium",
              product: expect.objectContaining({ display_name: "Premium", prices: { monthly: { USD: "2000", interval: [1, "month"] } } }),
            },
          ],
          product: {
            display_name: "Pro",
            customer_type: "user",
            product_line_id: "plans",
            server_only: false,
            stackable: false,
            prices: { monthly },
            included_items: PAYMENTS.products.pro.includedItems,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
          },
        },
      ],
    });
    const end = Date.parse(listed.body.items[0].subscription.current_period_end);
    expect(end - Date.now()).toBeGreaterThan(29 * DAY);
  });

  it("list a one-time purchase without subscription, and record the grant as a domain event in its transaction", async () => {
    const user = await signUpUser(server, project);
    const res = await grant(project.admin, user.userId, { product_id: "lifetime" });
    expect(res.body).toEqual({ success: true });
    const listed = await list(project.server, user.userId);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: "lifetime", type: "one_time", subscription: null })]);
    expect(listed.body.items[0]).not.toHaveProperty("switch_options");
    const events = await server.instance.services.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.projectId, project.id), eq(outboxEvents.type, "payments.product_granted")));
    expect(events.map((e) => e.payload)).toContainEqual({
      id: expect.any(String),
      customer_type: "user",
      customer_id: user.userId,
      product_id: "lifetime",
      quantity: 1,
      type: "one_time",
      source: "api_grant",
    });
  });

  it("hide server-only products from clients but list them for servers", async () => {
    const user = await signUpUser(server, project);
    expect((await grant(project.server, user.userId, { product_id: "server-plan" })).status).toBe(200);
    expect((await list(user.as, user.userId)).body.items).toEqual([]);
    expect((await list(project.server, user.userId)).body.items.map((i: { id: string }) => i.id)).toEqual(["server-plan"]);
  });

  it("grant an inline product: listed with id null, not cancelable, metadata kept", async () => {
    const user = await signUpUser(server, project);
    const res = await grant(project.server, user.userId, {
      product_inline: {
        display_name: "Inline Access",
        customer_type: "user",
        prices: { quarterly: { USD: "2400", interval: [3, "month"] } },
        included_items: { credits: { quantity: 4 } },
        server_metadata: { cohort: "beta" },
      },
    });
    expect(res.status, res.text).toBe(200);
    const [item] = (await list(project.server, user.userId)).body.items;
    expect(item).toMatchObject({
      id: null,
      type: "subscription",
      subscription: { is_cancelable: false },
      product: {
        display_name: "Inline Access",
        server_only: true,
        stackable: false,
        prices: { quarterly: { USD: "2400", interval: [3, "month"] } },
        included_items: { credits: { quantity: 4, repeat: "never", expires: "never" } },
        server_metadata: { cohort: "beta" },
        client_metadata: null,
      },
    });
    expect(await quantity(project.server, user.userId, "credits")).toBe(4);
  });

  it("grant a stackable product with a quantity, multiplying what it includes", async () => {
    const user = await signUpUser(server, project);
    expect((await grant(project.server, user.userId, { product_id: "seats", quantity: 3 })).status).toBe(200);
    expect((await grant(project.server, user.userId, { product_id: "seats" })).status).toBe(200);
    expect((await list(project.server, user.userId)).body.items.map((i: { quantity: number }) => i.quantity)).toEqual([3, 1]);
    expect(await quantity(project.server, user.userId, "seats")).toBe(4);
  });

  it("refuse client access to granting", async () => {
    const user = await signUpUser(server, project);
    expectKnownError(await grant(user.as, user.userId, { product_id: "pro" }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("refuse a request without a product, or with both, with the reference's plain messages", async () => {
    const user = await signUpUser(server, project);
    const none = await grant(project.server, user.userId, {});
    expectPlainError(none, 400);
    expect(none.text).toBe("Must specify either product_id or product_inline!");
    const both = await grant(project.server, user.userId, {
      product_id: "pro",
      product_inline: { display_name: "x", customer_type: "user", prices: {} },
    });
    expect(both.status).toBe(400);
    expect(both.text).toBe("Cannot specify both product_id and product_inline!");
  });

  it("refuse an unknown product, one named like an item, a type mismatch and a missing customer", async () => {
    const user = await signUpUser(server, project);
    const unknown = await grant(project.server, user.userId, { product_id: "nope" });
    expectKnownError(unknown, "PRODUCT_DOES_NOT_EXIST", 400);
    expect(unknown.body.details).toEqual({ product_id: "nope", context: null });
    expect(unknown.body.error).toBe('Product with ID "nope" does not exist.');
    const item = await grant(project.server, user.userId, { product_id: "credits" });
    expect(item.body.details).toEqual({ product_id: "credits", context: "item_exists" });
    const mismatch = await grant(project.server, user.userId, { product_id: "team-plan" });
    expectKnownError(mismatch, "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expect(mismatch.body.details).toEqual({
      actual_customer_type: "user",
      customer_id: user.userId,
      product_customer_type: "team",
      product_id: "team-plan",
    });
    expect(mismatch.body.error).toBe(
      `The user with ID "${user.userId}" is not a valid customer for the inline product that has been passed in. The product is configured to only be available for team customers, but the customer is a user.`,
    );
    expectKnownError(await grant(project.server, UNKNOWN_UUID, { product_id: "pro" }), "USER_NOT_FOUND", 404);
    expectKnownError(await grant(project.server, "not-a-uuid", { product_id: "pro" }), "USER_NOT_FOUND", 404);
    expectKnownError(await grant(project.server, UNKNOWN_UUID, { product_id: "team-plan" }, "team"), "TEAM_NOT_FOUND", 404);
    expect((await list(project.server, user.userId)).body.items).toEqual([]);
  });

  it("refuse quantity above one for a product that is not stackable, a second grant of it, and an add-on without its base", async () => {
    const user = await signUpUser(server, project);
    const many = await grant(project.server, user.userId, { product_id: "lifetime", quantity: 2 });
    expect(many.status).toBe(400);
    expect(many.text).toBe("This product is not stackable; quantity must be 1");
    const addon = await grant(project.server, user.userId, { product_id: "addon" });
    expect(addon.status).toBe(400);
    expect(addon.text).toBe("This product is an add-on to a product that the customer does not have");
    expect((await grant(project.server, user.userId, { product_id: "lifetime" })).status).toBe(200);
    const again = await grant(project.server, user.userId, { product_id: "lifetime" });
    expectKnownError(again, "PRODUCT_ALREADY_GRANTED", 400);
    expect(again.body).toMatchObject({
      details: { customer_id: user.userId, product_id: "lifetime" },
      error: `Customer with ID "${user.userId}" already owns product "lifetime".`,
    });
    expect((await grant(project.server, user.userId, { product_id: "pro" })).status).toBe(200);
    expect((await grant(project.server, user.userId, { product_id: "addon" })).status).toBe(200);
    expect((await list(project.server, user.userId)).body.items.map((i: { id: string }) => i.id)).toEqual(["lifetime", "pro", "addon"]);
  });

  it("replace a subscription of the same product line at once, and refuse one when a one-time purchase holds the line", async () => {
    const user = await signUpUser(server, project);
    expect((await grant(project.server, user.userId, { product_id: "pro" })).status).toBe(200);
    expect((await grant(project.server, user.userId, { product_id: "premium" })).status).toBe(200);
    expect((await list(project.server, user.userId)).body.items.map((i: { id: string }) => i.id)).toEqual(["premium"]);
    // Pro's never-expiring credits stay; premium's come on top.
    expect(await quantity(project.server, user.userId, "credits")).toBe(12);
    expect(await quantity(project.server, user.userId, "tokens")).toBe(3);

    const other = await signUpUser(server, project);
    expect((await grant(project.server, other.userId, { product_id: "line-lifetime" })).status).toBe(200);
    const refused = await grant(project.server, other.userId, { product_id: "pro" });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("Customer already has a one-time purchase in this product line");
  });

  it("refuse a client another user's products, a custom customer's, and a signed-out client", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    const res = await list(user.as, other.userId);
    expect(res.status).toBe(403);
    expect(res.text).toBe("Clients can only access their own user or team products.");
    expect((await list(user.as, "app-customer", undefined, "custom")).status).toBe(403);
    expectKnownError(await list(project.client, user.userId), "USER_AUTHENTICATION_REQUIRED");
    expectKnownError(await list(project.server, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
  });

  it("page by purchase, oldest first: limit, next_cursor, and a bad cursor", async () => {
    const user = await signUpUser(server, project);
    for (const id of ["pro", "lifetime", "seats"]) expect((await grant(project.server, user.userId, { product_id: id })).status).toBe(200);
    const all = await list(user.as, user.userId);
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual(["pro", "lifetime", "seats"]);
    const first = await list(user.as, user.userId, { limit: 1 });
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual(["pro"]);
    expect(first.body.pagination.next_cursor).toEqual(expect.any(String));
    const rest = await list(user.as, user.userId, { limit: 5, cursor: first.body.pagination.next_cursor });
    expect([...first.body.items, ...rest.body.items]).toEqual(all.body.items);
    expect(rest.body.pagination.next_cursor).toBeNull();
    const bad = await list(user.as, user.userId, { cursor: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe("Invalid cursor");
    expect((await list(user.as, user.userId, { limit: 0 })).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("included items and the ledger", () => {
  it("count included items in a removal's check, and let concurrent grants of one product make one purchase", async () => {
    const user = await signUpUser(server, project);
    const grants = await Promise.all([1, 2, 3].map(() => grant(project.server, user.userId, { product_id: "pro" })));
    expect(grants.map((g) => g.status).sort()).toEqual([200, 400, 400]);
    expect(grants.filter((g) => g.status === 400).map((g) => g.body.code)).toEqual(["PRODUCT_ALREADY_GRANTED", "PRODUCT_ALREADY_GRANTED"]);
    const remove = (delta: number) =>
      server.request(`/payments/items/user/${user.userId}/credits/update-quantity`, {
        method: "POST",
        as: project.server,
        query: { allow_negative: "false" },
        body: { delta },
      });
    expect((await remove(-4)).status).toBe(200);
    const tooMuch = await remove(-2);
    expectKnownError(tooMuch, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect(tooMuch.body.details).toEqual({ item_id: "credits", customer_id: user.userId, quantity: -2 });
    expect(await quantity(project.server, user.userId, "credits")).toBe(1);
  });
});

describe("cancelling", () => {
  it("cancel one stackable subscription by its id, leaving the others", async () => {
    const user = await signUpUser(server, project);
    const first = await grant(project.server, user.userId, { product_id: "seats" });
    expect((await grant(project.server, user.userId, { product_id: "seats", quantity: 2 })).status).toBe(200);
    const res = await server.request(`${productsPath("user", user.userId)}/seats`, {
      method: "DELETE",
      as: user.as,
      query: { subscription_id: first.body.subscription_id },
    });
    expect(res.status, res.text).toBe(200);
    const items = (await list(user.as, user.userId)).body.items;
    expect(items.map((i: { type: string; quantity: number }) => [i.type, i.quantity])).toEqual([
      ["one_time", 1],
      ["subscription", 2],
    ]);
  });

  it("cancel one's own subscription: owned until the period ends, listed as one-time meanwhile, gone after", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    expect((await grant(p.server, user.userId, { product_id: "pro" })).status).toBe(200);
    const res = await cancel(user.as, user.userId, "pro");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await list(user.as, user.userId)).body.items).toEqual([
      expect.objectContaining({ id: "pro", type: "one_time", subscription: null }),
    ]);
    const twice = await cancel(user.as, user.userId, "pro");
    expect(twice.status).toBe(400);
    expect(twice.text).toBe("This subscription cannot be canceled.");
    expect((await advance(p, 31 * DAY)).status).toBe(200);
    expect((await list(user.as, user.userId)).body.items).toEqual([]);
    // No renewal after the end: the credits granted in the one period stay (they never expire), no more come.
    expect(await quantity(p.server, user.userId, "credits")).toBe(5);
    expect(await quantity(p.server, user.userId, "tokens")).toBe(0);
  });

  it("refuse cancelling a one-time purchase, a product not owned, and another user's subscription", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    expect((await grant(project.server, user.userId, { product_id: "lifetime" })).status).toBe(200);
    expect((await grant(project.server, other.userId, { product_id: "pro" })).status).toBe(200);
    const oneTime = await cancel(user.as, user.userId, "lifetime");
    expect(oneTime.status).toBe(400);
    expect(oneTime.text).toBe("This product is a one time purchase and cannot be canceled.");
    const notOwned = await cancel(user.as, user.userId, "pro");
    expect(notOwned.status).toBe(400);
    expect(notOwned.text).toBe("Customer does not have this product.");
    const foreign = await cancel(user.as, other.userId, "pro");
    expect(foreign.status).toBe(403);
    expect(foreign.text).toBe("Clients can only cancel their own subscriptions.");
    expectKnownError(await cancel(user.as, user.userId, "server-plan"), "PRODUCT_DOES_NOT_EXIST", 400);
    expect((await cancel(project.server, other.userId, "pro")).status).toBe(200);
  });
});

describe("team customers", () => {
  it("let a team's admin list and cancel its products from the client; refuse a plain member", async () => {
    const admin = await signUpUser(server, project);
    const member = await signUpUser(server, project);
    const team = await server.request("/teams", {
      method: "POST",
      as: project.server,
      body: { display_name: "Billing team", creator_user_id: admin.userId },
    });
    expect(team.status, team.text).toBe(201);
    const teamId = team.body.id as string;
    const joined = await server.request(`/team-memberships/${teamId}/${member.userId}`, { method: "POST", as: project.server, body: {} });
    expect(joined.status, joined.text).toBe(201);
    expect((await grant(project.server, teamId, { product_id: "team-plan" }, "team")).status).toBe(200);
    const listed = await list(admin.as, teamId, undefined, "team");
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual(["team-plan"]);
    expectKnownError(await list(member.as, teamId, undefined, "team"), "TEAM_PERMISSION_REQUIRED");
    const outsider = await signUpUser(server, project);
    expectKnownError(await list(outsider.as, teamId, undefined, "team"), "TEAM_MEMBERSHIP_NOT_FOUND");
    const cancelled = await server.request(`${productsPath("team", teamId)}/team-plan`, { method: "DELETE", as: admin.as });
    expect(cancelled.status, cancelled.text).toBe(200);
  });
});

describe("the payments test clock", () => {
  it("move a project's payments time: repeat grants arrive, when-repeated ones expire, periods roll", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    expect((await grant(p.server, user.userId, { product_id: "pro" })).status).toBe(200);
    expect(await quantity(p.server, user.userId, "credits")).toBe(5);
    expect(await quantity(p.server, user.userId, "tokens")).toBe(3);
    const before = (await list(p.server, user.userId)).body.items[0].subscription.current_period_end;
    const moved = await advance(p, 30 * DAY);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ offset_ms: 30 * DAY, test_mode: true });
    expect(await quantity(p.server, user.userId, "credits")).toBe(10);
    expect(await quantity(p.server, user.userId, "tokens")).toBe(3);
    await advance(p, 60 * DAY);
    expect(await quantity(p.server, user.userId, "credits")).toBe(20);
    const after = (await list(p.server, user.userId)).body.items[0].subscription.current_period_end;
    expect(Date.parse(after) - Date.parse(before)).toBe(90 * DAY);
    const state = await server.request("/internal/payments/test-clock", { as: p.admin });
    expect(state.body).toMatchObject({ offset_ms: 90 * DAY, test_mode: true });
    expect(state.body.now_millis - Date.now()).toBeGreaterThan(89 * DAY);
    // Another project's time is its own.
    const elsewhere = await server.request("/internal/payments/test-clock", { as: project.admin });
    expect(elsewhere.body.offset_ms).toBe(0);
  });

  it("refuse moving it outside test mode, a non-positive move, and non-admin access", async () => {
    const p = await newProject({ ...PAYMENTS, testMode: false });
    const off = await advance(p, DAY);
    expect(off.status).toBe(403);
    expect(off.text).toBe("Test mode is not enabled for this project");
    expect((await advance(project, 0)).body.code).toBe("SCHEMA_ERROR");
    expectKnownError(
      await server.request("/internal/payments/test-clock/advance", { method: "POST", as: project.server, body: { ms: 1 } }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});

describe("buying in test mode", () => {
  it("create a URL, validate its code, take the product without paying; the code works once", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const created = await purchaseUrl(user.as, {
      customer_type: "user",
      customer_id: user.userId,
      product_id: "pro",
      return_url: "http://localhost:3000/after",
    });
    expect(created.status, created.text).toBe(200);
    const url = new URL(created.body.url);
    expect(url.pathname).toMatch(new RegExp(`^/purchase/${p.id}_[a-z0-9]{45}$`));
    expect(url.searchParams.get("return_url")).toBe("http://localhost:3000/after");
    const fullCode = codeOf(created.body.url);

    expectKnownError(await validate({ full_code: fullCode, return_url: "https://evil.example.com/" }), "REDIRECT_URL_NOT_WHITELISTED", 400);
    const validated = await validate({ full_code: fullCode, return_url: "http://localhost:3000/after" });
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body).toEqual({
      product: {
        display_name: "Pro",
        customer_type: "user",
        product_line_id: "plans",
        stackable: false,
        prices: { monthly },
        client_metadata: null,
        client_read_only_metadata: null,
      },
      project_id: p.id,
      project_logo_url: null,
      stripe_account_id: null,
      charges_enabled: false,
      already_bought_non_stackable: false,
      conflicting_products: [],
      test_mode: true,
    });

    const unknownPrice = await testModeBuy({ full_code: fullCode, price_id: "yearly", quantity: 1 });
    expect(unknownPrice.status).toBe(400);
    expect(unknownPrice.text).toBe("Price not found on product associated with this purchase code");
    const bought = await testModeBuy({ full_code: fullCode, price_id: "monthly", quantity: 1 });
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body).toEqual({ success: true });
    expect((await list(user.as, user.userId)).body.items).toEqual([expect.objectContaining({ id: "pro", type: "subscription" })]);
    expect(await quantity(user.as, user.userId, "credits")).toBe(5);
    const [row] = await server.instance.services.db.select().from(paymentPurchases).where(eq(paymentPurchases.projectId, p.id));
    expect(row).toMatchObject({ source: "test_mode", testMode: true, priceId: "monthly", kind: "subscription" });

    expectKnownError(await testModeBuy({ full_code: fullCode, price_id: "monthly", quantity: 1 }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await validate({ full_code: fullCode }), "VERIFICATION_CODE_NOT_FOUND", 404);
    // Owned now: a new URL for it is refused; validate-code of another product of the line names it as replaced.
    expectKnownError(
      await purchaseUrl(user.as, { customer_type: "user", customer_id: user.userId, product_id: "pro" }),
      "PRODUCT_ALREADY_GRANTED",
      400,
    );
    const premium = await purchaseUrl(user.as, { customer_type: "user", customer_id: user.userId, product_id: "premium" });
    expect((await validate({ full_code: codeOf(premium.body.url) })).body.conflicting_products).toEqual([
      { product_id: "pro", display_name: "Pro" },
    ]);
  });

  it("two purchases with one code at once make exactly one purchase", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const created = await purchaseUrl(p.server, { customer_type: "user", customer_id: user.userId, product_id: "seats" });
    const fullCode = codeOf(created.body.url);
    // The reference's own tests call it with admin access: credentials are ignored, the code names the project.
    const answers = await Promise.all([
      testModeBuy({ full_code: fullCode, price_id: "monthly", quantity: 2 }),
      server.request("/internal/payments/test-mode-purchase-session", {
        method: "POST",
        as: p.admin,
        body: { full_code: fullCode, price_id: "monthly", quantity: 2 },
      }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    const rows = await server.instance.services.db.select().from(paymentPurchases).where(eq(paymentPurchases.projectId, p.id));
    expect(rows).toHaveLength(1);
    expect(await quantity(p.server, user.userId, "seats")).toBe(2);
  });

  it("expire a code after 24 hours, and answer 404 for codes that name no project or nothing", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const created = await purchaseUrl(p.server, { customer_type: "user", customer_id: user.userId, product_id: "lifetime" });
    const fullCode = codeOf(created.body.url);
    expect((await validate({ full_code: fullCode })).status).toBe(200);
    await server.clock.ahead(DAY + 1000, async () => {
      expectKnownError(await validate({ full_code: fullCode }), "VERIFICATION_CODE_NOT_FOUND", 404);
      expectKnownError(await testModeBuy({ full_code: fullCode, price_id: "once" }), "VERIFICATION_CODE_NOT_FOUND", 404);
    });
    // Housekeeping deletes it a day after it expired, not before.
    const codesOf = () => server.instance.services.db.select().from(paymentPurchaseCodes).where(eq(paymentPurchaseCodes.projectId, p.id));
    const [row] = await codesOf();
    const dayAfterExpiry = row!.expiresAt.getTime() + DAY;
    await deleteExpiredPurchaseCodes(server.instance.services.db, new Date(dayAfterExpiry - 1000));
    expect(await codesOf()).toHaveLength(1);
    expect(await deleteExpiredPurchaseCodes(server.instance.services.db, new Date(dayAfterExpiry + 1000))).toBeGreaterThanOrEqual(1);
    expect(await codesOf()).toHaveLength(0);
    expectKnownError(await validate({ full_code: "nonsense" }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await validate({ full_code: `${UNKNOWN_UUID}_${"a".repeat(45)}` }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await validate({ full_code: `${p.id}_${"a".repeat(45)}` }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("work for a new project without any payment account; outside test mode refuse with the onboarding message", async () => {
    const p = await newProject({
      products: PAYMENTS.products,
      items: PAYMENTS.items,
      productLines: PAYMENTS.productLines,
      testMode: false,
    });
    const user = await signUpUser(server, p);
    const res = await purchaseUrl(user.as, { customer_type: "user", customer_id: user.userId, product_id: "pro" });
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.",
    );
    // Onboarding is checked before the product.
    expect((await purchaseUrl(user.as, { customer_type: "user", customer_id: user.userId, product_id: "nope" })).status).toBe(400);
  });

  it("refuse the test-mode purchase when test mode was turned off after the code was made", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const created = await purchaseUrl(p.server, { customer_type: "user", customer_id: user.userId, product_id: "lifetime" });
    await configure(p, { testMode: false });
    const res = await testModeBuy({ full_code: codeOf(created.body.url), price_id: "once" });
    expect(res.status).toBe(403);
    expect(res.text).toBe("Test mode is not enabled for this project");
    expect((await list(p.server, user.userId)).body.items).toEqual([]);
  });

  it("answer NEW_PURCHASES_BLOCKED first when the project blocks new purchases", async () => {
    const p = await newProject();
    const user = await signUpUser(server, p);
    const created = await purchaseUrl(p.server, { customer_type: "user", customer_id: user.userId, product_id: "lifetime" });
    await configure(p, { blockNewPurchases: true });
    expectKnownError(await purchaseUrl(user.as, { customer_type: "user", customer_id: UNKNOWN_UUID }), "NEW_PURCHASES_BLOCKED", 403);
    expectKnownError(await testModeBuy({ full_code: codeOf(created.body.url), price_id: "once" }), "NEW_PURCHASES_BLOCKED", 403);
  });

  it("check create-purchase-url in the reference's order", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    const body = (extra: Record<string, unknown>) => ({ customer_type: "user", customer_id: user.userId, ...extra });
    const foreign = await purchaseUrl(user.as, { customer_type: "user", customer_id: other.userId, product_id: "nope" });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toBe("Clients can only create purchase URLs for their own user or team.");
    const none = await purchaseUrl(user.as, body({}));
    expect(none.text).toBe("Must specify either product_id or product_inline!");
    const inline = await purchaseUrl(user.as, body({ product_inline: { display_name: "x", customer_type: "user", prices: {} } }));
    expect(inline.status).toBe(400);
    expect(inline.text).toBe(
      "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    );
    const serverOnly = await purchaseUrl(user.as, body({ product_id: "server-plan" }));
    expectKnownError(serverOnly, "PRODUCT_DOES_NOT_EXIST", 400);
    expect(serverOnly.body.details).toEqual({ product_id: "server-plan", context: "server_only" });
    expectKnownError(await purchaseUrl(user.as, body({ product_id: "team-plan" })), "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expectKnownError(
      await purchaseUrl(user.as, body({ product_id: "pro", return_url: "https://evil.example.com/x" })),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    const fromServer = await purchaseUrl(project.server, {
      customer_type: "user",
      customer_id: user.userId,
      product_inline: { display_name: "Inline", customer_type: "user", prices: { once: { USD: "5" } } },
    });
    expect(fromServer.status, fromServer.text).toBe(200);
    expect((await validate({ full_code: codeOf(fromServer.body.url) })).body.product.display_name).toBe("Inline");
  });

  it("take the older offer_id on /api/v1, and refuse it on /api/latest", async () => {
    const user = await signUpUser(server, project);
    const v1 = await purchaseUrl(user.as, { customer_type: "user", customer_id: user.userId, offer_id: "lifetime" });
    expect(v1.status, v1.text).toBe(200);
    const latest = await server.instance.app.request("http://localhost/api/latest/payments/purchases/create-purchase-url", {
      method: "POST",
      headers: { ...authHeaders(user.as), "content-type": "application/json" },
      body: JSON.stringify({ customer_type: "user", customer_id: user.userId, offer_id: "lifetime" }),
    });
    expect(latest.status).toBe(400);
    const answer = (await latest.json()) as { code: string; error: string };
    expect(answer.code).toBe("SCHEMA_ERROR");
    expect(answer.error).toContain("body contains unknown properties: offer_id");
  });
});
