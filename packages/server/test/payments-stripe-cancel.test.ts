/**
 * Cancelling a subscription paid through Stripe (DELETE /payments/products/{type}/{id}/{product}) against the Stripe
 * stand-in: Stripe is told to end it at its period's end, so it charges no more, and the customer keeps the product
 * until then. When Stripe cannot be told, nothing changes on either side.
 */
import { describe, expect, it } from "vitest";
import { expectPlainError, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import type { StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformcancelsecret01234567";

const PAYMENTS = {
  items: { credits: {} },
  products: {
    pro: {
      displayName: "Pro",
      prices: { monthly: { USD: "12.50", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 5, expires: "when-purchase-expires" } },
    },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));

/** A user who bought Pro through the purchase page and paid its first month. */
const proSubscriber = (project: Project, accountId: string) => kit.paidSubscriber(project, accountId, "pro", "monthly");

const cancel = (as: Project["server"] | EndUser["as"], userId: string) =>
  server.request(`/payments/products/user/${userId}/pro`, { method: "DELETE", as });

const stripeCancelled = (subscriptionId: string) => stripe.subscriptions.get(subscriptionId)!.json.cancel_at_period_end;

describe("cancelling a subscription paid through Stripe", () => {
  it("tells Stripe to end it at the period's end; the customer keeps it until then", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    const res = await cancel(user.as, user.userId);
    expect(res.status, res.text).toBe(200);
    expect(stripeCancelled(subscriptionId)).toBe(true);
    const [purchase] = await kit.purchasesOf(project, user.userId);
    expect(purchase).toMatchObject({ cancelAtPeriodEnd: true, endedAt: purchase!.currentPeriodEnd });
    expect(await kit.quantity(project, user.userId, "credits")).toBe(5);

    // Stripe's own word of the cancellation changes nothing more, and a second cancellation is refused.
    const echo = kit.subscriptionEvent("customer.subscription.updated", subscriptionId, { status: "active" }, accountId);
    expect((await kit.deliver(echo)).status).toBe(200);
    expect((await kit.purchasesOf(project, user.userId))[0]).toMatchObject({ cancelAtPeriodEnd: true, endedAt: purchase!.endedAt });
    expectPlainError(await cancel(project.server, user.userId), 400, /^This subscription cannot be canceled\.$/);
  });

  it("Stripe down: 502, and the subscription goes on on both sides", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    stripe.down = true;
    try {
      const res = await cancel(project.server, user.userId);
      expect(res.status, res.text).toBe(502);
    } finally {
      stripe.down = false;
    }
    expect(stripeCancelled(subscriptionId)).toBe(false);
    expect((await kit.purchasesOf(project, user.userId))[0]).toMatchObject({ cancelAtPeriodEnd: false, endedAt: null });
  });

  it("a subscription Stripe no longer has is cancelled here", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    stripe.subscriptions.delete(subscriptionId);
    const res = await cancel(project.server, user.userId);
    expect(res.status, res.text).toBe(200);
    expect((await kit.purchasesOf(project, user.userId))[0]).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it("a refusal before Stripe is reached (nothing to cancel) makes no Stripe call", async () => {
    const { project } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const before = stripe.received.length;
    expectPlainError(await cancel(project.server, user.userId), 400, /^Customer does not have this product\.$/);
    expect(stripe.received.length).toBe(before);
  });
});
