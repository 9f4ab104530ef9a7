/**
 * `switchSubscription` through the SDK against a real server whose Stripe is
 * the loopback stand-in, on a project paying with its own Stripe key: a user
 * who bought Pro on the purchase page (Stripe's signed webhook says it was
 * paid) moves to Business from the client app; the user's cached products
 * and items follow. Without a saved card the SDK throws the catalogue's
 * DEFAULT_PAYMENT_METHOD_REQUIRED.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, StackServerApp } from "../../src/index.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, type StripeStandIn } from "../../../server/test/stripe-stand-in.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

const WEBHOOK_SECRET = "whsec_ownkeyswitch0123456789";

let stripe: StripeStandIn;
let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  ({ server, baseUrl } = await startServer({ stripe: { secretKey: null, webhookSecret: null, apiUrl: stripe.url } }));
  project = await createSdkProject(baseUrl);
  await project.project.updateConfig({
    "payments.testMode": false,
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.productLines.plans": { customerType: "user" },
    "payments.products.pro": {
      displayName: "Pro",
      productLineId: "plans",
      prices: { monthly: { USD: "10", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 10, expires: "when-purchase-expires" } },
    },
    "payments.products.business": {
      displayName: "Business",
      productLineId: "plans",
      prices: { monthly: { USD: "40", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 100, expires: "when-purchase-expires" } },
    },
  });
  const { secretKey } = stripe.addOwnAccount({ charges_enabled: true });
  await project.project.app.setStripeOwnKey({ secretKey, webhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

/** A new user who paid for Pro: the purchase page's session, then Stripe's signed `invoice.paid`. */
async function proSubscriber() {
  const app = clientAppOf(baseUrl, project);
  const signedUp = await app.signUpWithCredential({ email: uniqueEmail("switch"), password: PASSWORD, noRedirect: true });
  if (signedUp.status !== "ok") throw signedUp.error;
  const user = await app.getUser({ or: "throw" });
  const fullCode = new URL(await user.createCheckoutUrl({ productId: "pro" })).pathname.split("/").pop()!;
  const session = await fetch(`${baseUrl}/api/v1/payments/purchases/purchase-session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ full_code: fullCode, price_id: "monthly", quantity: 1 }),
  });
  expect(session.status).toBe(200);
  const subscription = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.id)!.json;
  const start = Math.floor(server.clock.now() / 1000);
  const paid = stripeEvent("invoice.paid", {
    id: `in_${subscription.id}`,
    object: "invoice",
    status: "paid",
    parent: { type: "subscription_details", subscription_details: { subscription: subscription.id, metadata: {} }, quote_details: null },
    lines: { object: "list", data: [{ id: "il_1", object: "line_item", period: { start, end: start + 30 * 86400 } }] },
  });
  const signed = signedDelivery(paid, WEBHOOK_SECRET, server.clock.now());
  const delivered = await fetch(`${baseUrl}/api/v1/integrations/stripe/webhooks/${project.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signed.signature },
    body: signed.body,
  });
  expect(delivered.status).toBe(200);
  return { app, user };
}

function saveCard(userId: string) {
  const customer = [...stripe.customers.values()].find((c) => c.json.metadata.latchkey_customer_id === userId)!;
  stripe.saveDefaultCard(customer.json.id);
}

describe("switchSubscription", () => {
  it("moves the signed-in user from Pro to Business; their products and credits follow", async () => {
    const { user } = await proSubscriber();
    expect((await user.listProducts()).map((p) => p.id)).toEqual(["pro"]);
    expect((await user.getItem("credits")).quantity).toBe(10);
    saveCard(user.id);

    await user.switchSubscription({ fromProductId: "pro", toProductId: "business" });
    expect((await user.listProducts()).map((p) => p.id)).toEqual(["business"]);
    expect((await user.getItem("credits")).quantity).toBe(100);
  });

  it("throws DEFAULT_PAYMENT_METHOD_REQUIRED without a saved card, and a server app may switch for the user", async () => {
    const { user } = await proSubscriber();
    const refused = await user.switchSubscription({ fromProductId: "pro", toProductId: "business" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KnownErrors.DefaultPaymentMethodRequired);
    expect((await user.listProducts()).map((p) => p.id)).toEqual(["pro"]);

    saveCard(user.id);
    const serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    const serverUser = (await serverApp.getUser(user.id))!;
    await serverUser.switchSubscription({ fromProductId: "pro", toProductId: "business" });
    expect((await serverUser.listProducts()).map((p) => p.id)).toEqual(["business"]);
  });
});
