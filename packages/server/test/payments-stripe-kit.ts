/**
 * What the Stripe purchase tests share: a project onboarded with Connect on
 * the stand-in, purchase codes and sessions, signed webhook deliveries, and
 * the events Stripe sends about a subscription.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { paymentPurchases } from "../src/capabilities/payments/schema.ts";
import { createProject, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

export const PLATFORM_HOOK = "/integrations/stripe/webhooks";

/**
 * Before the file's tests, starts the Stripe stand-in and a server pointed at it (the platform's key, the
 * platform webhook's signing secret) and hands both to `started`; after them, stops both.
 */
export function withStripeStandIn(webhookSecret: string, started: (both: { stripe: StripeStandIn; server: TestServer }) => void): void {
  let stripe: StripeStandIn | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    server = await createTestServer({ stripe: { secretKey: stripe.platformKey, webhookSecret, apiUrl: stripe.url } });
    started({ stripe, server });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });
}

export interface StripePurchaseKitOptions {
  server: () => TestServer;
  stripe: () => StripeStandIn;
  /** The `payments` config every connected project gets (test mode off). */
  payments: Record<string, unknown>;
  /** The platform webhook's signing secret the server was started with. */
  webhookSecret: string;
}

export function stripePurchaseKit(kit: StripePurchaseKitOptions) {
  const { server, stripe } = kit;
  async function configure(p: Project, payments: Record<string, unknown>) {
    const body = {
      config_override_string: JSON.stringify(Object.fromEntries(Object.entries(payments).map(([k, v]) => [`payments.${k}`, v]))),
    };
    const res = await server().request("/internal/config/override/environment", { method: "PATCH", as: p.admin, body });
    expect(res.status, res.text).toBe(200);
  }

  /** A project with products, onboarded with Connect (outside test mode), and its connected account. */
  async function connectedProject(): Promise<{ project: Project; accountId: string }> {
    const project = await createProject(server());
    await configure(project, { ...kit.payments, testMode: false });
    const res = await server().request("/internal/payments/setup", { method: "POST", as: project.admin });
    expect(res.status, res.text).toBe(200);
    const accountId = new URL(res.body.url as string).pathname.split("/")[3]!;
    return { project, accountId };
  }

  async function purchaseCode(project: Project, userId: string, productId: string): Promise<string> {
    const res = await server().request("/payments/purchases/create-purchase-url", {
      method: "POST",
      as: project.server,
      body: { customer_type: "user", customer_id: userId, product_id: productId },
    });
    expect(res.status, res.text).toBe(200);
    return new URL(res.body.url as string).pathname.split("/").pop()!;
  }

  const session = (body: unknown) => server().request("/payments/purchases/purchase-session", { method: "POST", body });

  function deliver(event: unknown, path = PLATFORM_HOOK, secret = kit.webhookSecret) {
    const signed = signedDelivery(event, secret, server().clock.now());
    return server().request(path, {
      method: "POST",
      body: signed.body,
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signed.signature },
    });
  }

  async function purchasesOf(project: Project, userId: string) {
    return server()
      .instance.services.db.select()
      .from(paymentPurchases)
      .where(and(eq(paymentPurchases.projectId, project.id), eq(paymentPurchases.customerId, userId)));
  }

  async function quantity(project: Project, userId: string, item: string): Promise<number> {
    const res = await server().request(`/payments/items/user/${userId}/${item}`, { as: project.server });
    expect(res.status, res.text).toBe(200);
    return res.body.quantity as number;
  }

  /** Buys `productId` through a purchase session; answers the session's answer and the Stripe object it made. */
  async function startPurchase(project: Project, userId: string, productId: string, priceId: string) {
    const fullCode = await purchaseCode(project, userId, productId);
    const before = stripe().received.length;
    const res = await session({ full_code: fullCode, price_id: priceId, quantity: 1 });
    expect(res.status, res.text).toBe(200);
    return { res, fullCode, calls: stripe().received.slice(before) };
  }

  /** The invoice.paid Stripe sends for a subscription's period (seconds since the epoch). */
  function invoicePaid(subscriptionId: string, start: number, end: number, account: string) {
    return stripeEvent(
      "invoice.paid",
      {
        id: `in_${start}`,
        object: "invoice",
        status: "paid",
        parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata: {} }, quote_details: null },
        lines: { object: "list", data: [{ id: `il_${start}`, object: "line_item", period: { start, end } }] },
      },
      account,
    );
  }

  /**
   * A new user who bought a subscription through the purchase page and paid its first 30 days (the first invoice's
   * event arrived); answers the user and the Stripe subscription's id.
   */
  async function paidSubscriber(project: Project, accountId: string, productId: string, priceId: string) {
    const user: EndUser = await signUpUser(server(), project);
    await startPurchase(project, user.userId, productId, priceId);
    const sub = [...stripe().subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    const start = Math.floor(server().clock.now() / 1000);
    expect((await deliver(invoicePaid(sub.id, start, start + 30 * 86400, accountId))).status).toBe(200);
    return { user, subscriptionId: sub.id };
  }

  function subscriptionEvent(type: string, subscriptionId: string, changes: Record<string, unknown>, account: string) {
    const made = stripe().subscriptions.get(subscriptionId)!.json;
    return stripeEvent(type, { ...made, ...changes }, account);
  }

  return {
    configure,
    connectedProject,
    purchaseCode,
    session,
    deliver,
    purchasesOf,
    quantity,
    startPurchase,
    invoicePaid,
    paidSubscriber,
    subscriptionEvent,
  };
}
