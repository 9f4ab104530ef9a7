/**
 * A customer's billing against the Stripe stand-in: their default card
 * (GET /payments/billing/{user|team}/{id}), saving a new one through a
 * SetupIntent (POST /payments/payment-method/.../setup-intent, then
 * .../set-default once the card form made it succeed), and the invoices of
 * their subscriptions (GET /payments/invoices/...), kept from Stripe's
 * signed invoice.* events, each applied once, and listed newest first
 * without asking Stripe. Every refusal in the API's order.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentStripeEvents, paymentStripeInvoices } from "../src/capabilities/payments/schema.ts";
import { createProject, expectPlainError, signUpUser, UNKNOWN_UUID, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { stripePurchaseKit } from "./payments-stripe-kit.ts";
import { addMember, createTeam } from "./permission-fixtures.ts";
import { stripeInvoice } from "./stripe-stand-in-billing.ts";
import { startStripeStandIn, stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformbillingsecret0123456";
const NOT_SET_UP = /^Payments are not set up in this Stack Auth project\./;

const PAYMENTS = {
  productLines: { plans: { displayName: "Plans" } },
  products: {
    pro: { displayName: "Pro", productLineId: "plans", prices: { monthly: { USD: "12.50", interval: [1, "month"] } } },
    business: { displayName: "Business", productLineId: "plans", prices: { monthly: { USD: "30", interval: [1, "month"] } } },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } } },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

beforeAll(async () => {
  stripe = await startStripeStandIn();
  server = await createTestServer({
    stripe: {
      secretKey: stripe.platformKey,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: stripe.platformPublishableKey,
      apiUrl: stripe.url,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

const billing = (as: Auth, id: string, type = "user") => server.request(`/payments/billing/${type}/${id}`, { as });
const invoices = (as: Auth, id: string, query = "", type = "user") => server.request(`/payments/invoices/${type}/${id}${query}`, { as });
const setupIntent = (as: Auth, id: string, type = "user") =>
  server.request(`/payments/payment-method/${type}/${id}/setup-intent`, { method: "POST", as, body: {} });
const setDefault = (as: Auth, id: string, setupIntentId: string, type = "user") =>
  server.request(`/payments/payment-method/${type}/${id}/set-default`, { method: "POST", as, body: { setup_intent_id: setupIntentId } });

/** The user's Stripe customer on the stand-in, once a purchase or a SetupIntent made one. */
function stripeCustomerOf(userId: string): string | undefined {
  return [...stripe.customers.values()].find((c) => c.json.metadata.latchkey_customer_id === userId)?.json.id;
}

/** A new SetupIntent for the user (as `as`), made to succeed with `card` as Stripe's card form would; answers its id and the card's. */
async function savedThroughIntent(as: Auth, userId: string, card = {}): Promise<{ intentId: string; cardId: string }> {
  const res = await setupIntent(as, userId);
  expect(res.status, res.text).toBe(200);
  const intentId = (res.body.client_secret as string).split("_secret_")[0]!;
  return { intentId, cardId: stripe.billing.succeedSetupIntent(intentId, card) };
}

describe("the default card", () => {
  it("none without a Stripe account, none without a Stripe customer, then the card the customer saved", async () => {
    const bare = await createProject(server);
    await kit.configure(bare, { ...PAYMENTS, testMode: false });
    const someone = await signUpUser(server, bare);
    expect((await billing(someone.as, someone.userId)).body).toEqual({ has_customer: false, default_payment_method: null });

    const { project } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const before = stripe.received.length;
    const res = await billing(user.as, user.userId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ has_customer: false, default_payment_method: null });
    // Nothing is made at Stripe by reading.
    expect(stripe.received.slice(before)).toEqual([]);

    await kit.startPurchase(project, user.userId, "lifetime", "once");
    expect((await billing(user.as, user.userId)).body).toEqual({ has_customer: true, default_payment_method: null });

    // A card saved on the customer but not made the default is the last place looked.
    const attached = stripe.billing.attachCard(stripeCustomerOf(user.userId)!, {
      brand: "amex",
      last4: "0005",
      exp_month: 3,
      exp_year: 2032,
    });
    expect((await billing(project.server, user.userId)).body).toEqual({
      has_customer: true,
      default_payment_method: { id: attached, brand: "amex", last4: "0005", exp_month: 3, exp_year: 2032 },
    });
    // The invoices' default comes first.
    const own = stripe.saveDefaultCard(stripeCustomerOf(user.userId)!);
    expect((await billing(project.server, user.userId)).body.default_payment_method).toMatchObject({
      id: own,
      brand: "visa",
      last4: "4242",
    });
  });
});

describe("saving a card through a SetupIntent", () => {
  it("makes the Stripe customer, asks for an off-session card intent, and sets the succeeded intent's card as default", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const before = stripe.received.length;
    const res = await setupIntent(user.as, user.userId);
    expect(res.status, res.text).toBe(200);
    const customer = stripeCustomerOf(user.userId)!;
    const made = stripe.received.slice(before).find((r) => r.method === "POST" && r.path === "/v1/setup_intents")!;
    expect(made.stripeAccount).toBe(accountId);
    expect(made.form).toEqual({ customer, usage: "off_session", "allowed_payment_method_types[0]": "card" });
    const intent = [...stripe.billing.setupIntents.values()].find((i) => i.json.customer === customer)!.json;
    expect(res.body).toEqual({
      client_secret: intent.client_secret,
      stripe_account_id: accountId,
      // Stripe.js on the connected account, with the operator's platform key.
      card_form: { publishable_key: stripe.platformPublishableKey, stripe_account_id: accountId },
    });

    // Not confirmed yet: refused, nothing changed.
    expectPlainError(await setDefault(user.as, user.userId, intent.id), 400, /^Setup intent has not succeeded\.$/);
    expect(stripe.customers.get(customer)!.json.invoice_settings).toEqual({ default_payment_method: null });

    const cardId = stripe.billing.succeedSetupIntent(intent.id, { brand: "mastercard", last4: "4444", exp_month: 7, exp_year: 2031 });
    const card = { id: cardId, brand: "mastercard", last4: "4444", exp_month: 7, exp_year: 2031 };
    const set = await setDefault(user.as, user.userId, intent.id);
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ success: true, default_payment_method: card });
    expect(stripe.customers.get(customer)!.json.invoice_settings).toMatchObject({ default_payment_method: { id: cardId } });
    expect((await billing(user.as, user.userId)).body).toEqual({ has_customer: true, default_payment_method: card });

    // A second card replaces it, on the same Stripe customer.
    const second = await savedThroughIntent(user.as, user.userId, { last4: "1881" });
    const again = await setDefault(project.server, user.userId, second.intentId);
    expect(again.body.default_payment_method).toMatchObject({ id: second.cardId, last4: "1881" });
    expect([...stripe.customers.values()].filter((c) => c.json.metadata.latchkey_customer_id === user.userId)).toHaveLength(1);
  });

  it("a team admin saves the team's card", async () => {
    const { project } = await kit.connectedProject();
    const admin = await signUpUser(server, project);
    const teamId = await createTeam(server, project.id, admin.userId);
    const res = await setupIntent(admin.as, teamId, "team");
    expect(res.status, res.text).toBe(200);
    const intentId = (res.body.client_secret as string).split("_secret_")[0]!;
    const cardId = stripe.billing.succeedSetupIntent(intentId);
    expect((await setDefault(admin.as, teamId, intentId, "team")).body.default_payment_method).toMatchObject({ id: cardId });
    expect((await billing(admin.as, teamId, "team")).body).toMatchObject({ has_customer: true, default_payment_method: { id: cardId } });
  });

  it("refuses another customer's intent, and an intent Stripe does not know", async () => {
    const { project } = await kit.connectedProject();
    const [alice, bob, carol] = await Promise.all([signUpUser(server, project), signUpUser(server, project), signUpUser(server, project)]);
    const alices = await savedThroughIntent(alice.as, alice.userId);
    await savedThroughIntent(bob.as, bob.userId);
    const foreign = /^Setup intent does not belong to this customer\.$/;
    expectPlainError(await setDefault(bob.as, bob.userId, alices.intentId), 403, foreign);
    expectPlainError(await setDefault(project.server, bob.userId, alices.intentId), 403, foreign);
    // Carol has no Stripe customer at all: no intent is hers, and none is made for her.
    expectPlainError(await setDefault(carol.as, carol.userId, alices.intentId), 403, foreign);
    expect(stripeCustomerOf(carol.userId)).toBeUndefined();
    expect(stripe.customers.get(stripeCustomerOf(bob.userId)!)!.json.invoice_settings).toEqual({ default_payment_method: null });
    expectPlainError(await setDefault(bob.as, bob.userId, "seti_unknown"), 400, /^Stripe refused the request: No such setupintent/);
  });

  it("an own-key project's card form is its own publishable key on its own account, and null without one", async () => {
    for (const publishableKey of ["pk_test_ownbilling42", undefined]) {
      const project = await createProject(server);
      await kit.configure(project, { ...PAYMENTS, testMode: false });
      const own = stripe.addOwnAccount({ charges_enabled: true });
      const set = await server.request("/internal/payments/stripe/own-key", {
        method: "POST",
        as: project.admin,
        body: {
          secret_key: own.secretKey,
          webhook_secret: "whsec_ownbilling42",
          ...(publishableKey ? { publishable_key: publishableKey } : {}),
        },
      });
      expect(set.status, set.text).toBe(200);
      const user = await signUpUser(server, project);
      const res = await setupIntent(user.as, user.userId);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        client_secret: expect.stringMatching(/^seti_\w+_secret_\w+$/),
        stripe_account_id: own.account.id,
        card_form: { publishable_key: publishableKey ?? null, stripe_account_id: null },
      });
      const intentId = (res.body.client_secret as string).split("_secret_")[0]!;
      expect(stripe.billing.setupIntents.get(intentId)!.account).toBe(own.account.id);
    }
  });

  it("a project without a Stripe account refuses as a purchase does", async () => {
    const bare = await createProject(server);
    await kit.configure(bare, { ...PAYMENTS, testMode: false });
    const user = await signUpUser(server, bare);
    const before = stripe.received.length;
    expectPlainError(await setupIntent(user.as, user.userId), 400, NOT_SET_UP);
    expectPlainError(await setDefault(user.as, user.userId, "seti_x"), 400, NOT_SET_UP);
    expect(stripe.received.slice(before)).toEqual([]);
  });
});

describe("the card a plan switch charges", () => {
  async function switchToBusiness(project: Project, user: EndUser) {
    const before = stripe.received.length;
    const res = await server.request(`/payments/products/user/${user.userId}/switch`, {
      method: "POST",
      as: user.as,
      body: { from_product_id: "pro", to_product_id: "business" },
    });
    expect(res.status, res.text).toBe(200);
    return stripe.received.slice(before).find((r) => r.method === "POST" && r.path.startsWith("/v1/subscriptions/"))!.form;
  }

  async function proSubscriber(project: Project, accountId: string): Promise<EndUser> {
    const user = await signUpUser(server, project);
    await kit.startPurchase(project, user.userId, "pro", "monthly");
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    const start = Math.floor(server.clock.now() / 1000);
    expect((await kit.deliver(kit.invoicePaid(sub.id, start, start + 30 * 86400, accountId))).status).toBe(200);
    return user;
  }

  it("is the one saved through a SetupIntent, else the first card saved on the customer", async () => {
    const { project, accountId } = await kit.connectedProject();
    const saver = await proSubscriber(project, accountId);
    const { intentId, cardId } = await savedThroughIntent(saver.as, saver.userId);
    expect((await setDefault(saver.as, saver.userId, intentId)).status).toBe(200);
    expect((await switchToBusiness(project, saver)).default_payment_method).toBe(cardId);

    const attacher = await proSubscriber(project, accountId);
    const attached = stripe.billing.attachCard(stripeCustomerOf(attacher.userId)!);
    expect((await switchToBusiness(project, attacher)).default_payment_method).toBe(attached);
  });
});

describe("who may ask", () => {
  let project: Project;
  let alice: EndUser;
  let bob: EndUser;
  let teamId: string;
  beforeAll(async () => {
    ({ project } = await kit.connectedProject());
    [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    teamId = await createTeam(server, project.id, alice.userId);
    await addMember(server, project.id, teamId, bob.userId);
  });

  const endpoints: [string, (as: Auth, id: string, type?: string) => ReturnType<typeof billing>, RegExp][] = [
    ["billing", billing, /^Clients can only manage their own billing\.$/],
    ["invoices", (as, id, type) => invoices(as, id, "", type), /^Clients can only manage their own billing\.$/],
    ["setup-intent", setupIntent, /^Clients can only manage their own payment method\.$/],
    ["set-default", (as, id, type) => setDefault(as, id, "seti_x", type), /^Clients can only manage their own payment method\.$/],
  ];

  it.each(endpoints)("%s: a signed-in client for its own user, and for a team where it holds team_admin", async (_name, call, refused) => {
    expectKnownError(await call(project.client, alice.userId), "USER_AUTHENTICATION_REQUIRED", 401);
    expectKnownError(await call(alice.as, "org-42", "custom"), "SCHEMA_ERROR", 400);
    expectPlainError(await call(bob.as, alice.userId), 403, refused);
    expectKnownError(await call(bob.as, teamId, "team"), "TEAM_PERMISSION_REQUIRED", 401);
    const carol = await signUpUser(server, project);
    expectKnownError(await call(carol.as, teamId, "team"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await call(project.server, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await call(project.server, "user-1"), "USER_NOT_FOUND", 404);
    expectKnownError(await call(project.server, UNKNOWN_UUID, "team"), "TEAM_NOT_FOUND", 404);
    expectKnownError(await call(alice.as, UNKNOWN_UUID, "team"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("the team's admin and a server reach the team's billing", async () => {
    expect((await billing(alice.as, teamId, "team")).body).toEqual({ has_customer: false, default_payment_method: null });
    expect((await invoices(project.server, teamId, "", "team")).body).toEqual({
      items: [],
      is_paginated: true,
      pagination: { next_cursor: null },
    });
    expect((await invoices(project.admin, alice.userId)).status).toBe(200);
  });
});

describe("invoices", () => {
  /** A user who subscribed to Pro through the purchase page; answers the Stripe subscription's id. */
  async function subscriber(project: Project): Promise<{ user: EndUser; subscriptionId: string }> {
    const user = await signUpUser(server, project);
    await kit.startPurchase(project, user.userId, "pro", "monthly");
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    return { user, subscriptionId: sub.id };
  }

  const T0 = 1_800_000_000;
  function invoiceEvent(
    type: string,
    accountId: string,
    invoice: Parameters<typeof stripeInvoice>[0],
    eventAt: number,
  ): Record<string, unknown> {
    return { ...stripeEvent(type, stripeInvoice(invoice), accountId), created: eventAt };
  }
  async function deliver(event: unknown) {
    const res = await kit.deliver(event);
    expect(res.status, res.text).toBe(200);
  }

  it("are kept from Stripe's events as the latest says, each event applied once, and listed newest first", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await subscriber(project);
    const first = { id: "in_first", subscription: subscriptionId, total: 1250, created: T0 };
    const url = "https://invoice.stripe.test/i/in_first";
    const opened = invoiceEvent("invoice.finalized", accountId, { ...first, status: "open", hostedInvoiceUrl: url }, T0 + 1);
    await deliver(invoiceEvent("invoice.created", accountId, { ...first, status: "draft" }, T0));
    await deliver(opened);
    await deliver(invoiceEvent("invoice.paid", accountId, { ...first, status: "paid", hostedInvoiceUrl: url }, T0 + 2));
    // Delivered again (same event id, even if its body said otherwise): applied once, nothing changes.
    await deliver({ ...opened, data: { object: { ...(opened.data as { object: object }).object, total: 1 } }, created: T0 + 9 });
    // Stripe's older event delivered late changes nothing either.
    await deliver(invoiceEvent("invoice.payment_failed", accountId, { ...first, status: "open" }, T0 + 1));

    const before = stripe.received.length;
    const res = await invoices(user.as, user.userId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      items: [{ created_at_millis: T0 * 1000, status: "paid", amount_total: 1250, hosted_invoice_url: url }],
      is_paginated: true,
      pagination: { next_cursor: null },
    });
    // Read from here: Stripe is not asked.
    expect(stripe.received.slice(before)).toEqual([]);
    const db = server.instance.services.db;
    const applied = await db
      .select()
      .from(paymentStripeEvents)
      .where(and(eq(paymentStripeEvents.projectId, project.id), eq(paymentStripeEvents.eventId, opened.id as string)));
    expect(applied).toHaveLength(1);
    const rows = await db.select().from(paymentStripeInvoices).where(eq(paymentStripeInvoices.projectId, project.id));
    expect(rows.map((r) => [r.stripeInvoiceId, r.customerId, r.stripeAccountId])).toEqual([["in_first", user.userId, accountId]]);

    // Voided later: shown so. A status this version does not know reads as null.
    await deliver(invoiceEvent("invoice.voided", accountId, { ...first, status: "void" }, T0 + 3));
    expect((await invoices(user.as, user.userId)).body.items[0].status).toBe("void");
    await deliver(invoiceEvent("invoice.updated", accountId, { ...first, status: "mystery" }, T0 + 4));
    expect((await invoices(user.as, user.userId)).body.items[0].status).toBeNull();
  });

  it("keeps no invoice of a subscription sold by no purchase here, nor another customer's", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user } = await subscriber(project);
    const other = await subscriber(project);
    await deliver(
      invoiceEvent("invoice.paid", accountId, { id: "in_x", subscription: "sub_elsewhere", status: "paid", total: 5, created: T0 }, T0),
    );
    await deliver(
      invoiceEvent(
        "invoice.paid",
        accountId,
        { id: "in_o", subscription: other.subscriptionId, status: "paid", total: 5, created: T0 },
        T0,
      ),
    );
    expect((await invoices(user.as, user.userId)).body.items).toEqual([]);
    expect((await invoices(other.user.as, other.user.userId)).body.items).toHaveLength(1);
  });

  it("pages by cursor, newest first; refuses a cursor it did not give and a limit out of 1–100", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await subscriber(project);
    // Five invoices, two made in the same second.
    const made = [0, 30, 60, 60, 90].map((days, n) => ({ id: `in_${n}`, total: 100 * (n + 1), created: T0 + days * 86400 }));
    for (const invoice of made)
      await deliver(invoiceEvent("invoice.paid", accountId, { ...invoice, subscription: subscriptionId, status: "paid" }, invoice.created));

    const all = await invoices(user.as, user.userId);
    const totals = (body: { items: { amount_total: number }[] }) => body.items.map((i) => i.amount_total);
    // The two of one second come in a fixed order of their own.
    expect([totals(all.body).slice(0, 1), new Set(totals(all.body).slice(1, 3)), totals(all.body).slice(3)]).toEqual([
      [500],
      new Set([300, 400]),
      [200, 100],
    ]);
    expect(all.body.items.map((i: { created_at_millis: number }) => i.created_at_millis)).toEqual(
      [...made].reverse().map((i) => i.created * 1000),
    );

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await invoices(user.as, user.userId, query);
      expect(page.status, page.text).toBe(200);
      seen.push(...totals(page.body));
      cursor = page.body.pagination.next_cursor;
      pages++;
    } while (cursor !== null && pages < 5);
    expect(pages).toBe(3);
    expect(seen).toEqual(totals(all.body));

    const first = await invoices(user.as, user.userId, "?limit=1");
    expect(first.body.items).toHaveLength(1);
    const hundred = await invoices(user.as, user.userId, "?limit=100");
    expect(hundred.body.items).toHaveLength(5);
    expect(hundred.body.pagination.next_cursor).toBeNull();
    for (const limit of ["0", "101", "ten"]) expectKnownError(await invoices(user.as, user.userId, `?limit=${limit}`), "SCHEMA_ERROR", 400);

    const invalid = /^Invalid cursor$/;
    expectPlainError(await invoices(user.as, user.userId, "?cursor=nope"), 400, invalid);
    expectPlainError(await invoices(user.as, user.userId, `?cursor=${UNKNOWN_UUID}`), 400, invalid);
    // Another customer's cursor is no cursor of this list.
    const other = await subscriber(project);
    await deliver(
      invoiceEvent("invoice.paid", accountId, { ...made[0]!, id: "in_other", subscription: other.subscriptionId, status: "paid" }, T0),
    );
    await deliver(
      invoiceEvent("invoice.paid", accountId, { ...made[0]!, id: "in_other2", subscription: other.subscriptionId, status: "paid" }, T0),
    );
    const othersCursor = (await invoices(other.user.as, other.user.userId, "?limit=1")).body.pagination.next_cursor as string;
    expect(othersCursor).not.toBeNull();
    expectPlainError(await invoices(user.as, user.userId, `?cursor=${othersCursor}`), 400, invalid);
  });
});
