/**
 * A customer's billing through the SDK against a real server whose Stripe is
 * the loopback stand-in, on a project paying with its own Stripe key: the
 * signed-in user saves a card (a SetupIntent the stand-in makes succeed, as
 * Stripe's card form would) and reads it back as their default; their
 * subscription's invoices arrive by Stripe's signed webhooks and are read a
 * page at a time; a team's admin and a server app reach a team's billing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackServerApp } from "../../src/index.ts";
import { stripeInvoice } from "../../../server/test/stripe-stand-in-billing.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, type StripeStandIn } from "../../../server/test/stripe-stand-in.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

const WEBHOOK_SECRET = "whsec_ownkeybilling0123456789";

let stripe: StripeStandIn;
let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let accountId: string;
let publishableKey: string;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  ({ server, baseUrl } = await startServer({ stripe: { secretKey: null, webhookSecret: null, apiUrl: stripe.url } }));
  project = await createSdkProject(baseUrl, { clientTeamCreationEnabled: true });
  await project.project.updateConfig({
    "payments.testMode": false,
    "payments.products.pro": { displayName: "Pro", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
  });
  const own = stripe.addOwnAccount({ charges_enabled: true });
  accountId = own.account.id;
  publishableKey = own.publishableKey;
  await project.project.app.setStripeOwnKey({ secretKey: own.secretKey, webhookSecret: WEBHOOK_SECRET, publishableKey });
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

async function signedInUser() {
  const app = clientAppOf(baseUrl, project);
  const signedUp = await app.signUpWithCredential({ email: uniqueEmail("billing"), password: PASSWORD, noRedirect: true });
  if (signedUp.status !== "ok") throw signedUp.error;
  return app.getUser({ or: "throw" });
}

async function deliver(event: unknown) {
  const signed = signedDelivery(event, WEBHOOK_SECRET, server.clock.now());
  const delivered = await fetch(`${baseUrl}/api/v1/integrations/stripe/webhooks/${project.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signed.signature },
    body: signed.body,
  });
  expect(delivered.status).toBe(200);
}

const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0]!;

describe("billing", () => {
  it("the signed-in user saves a card through a SetupIntent and reads it back as their default", async () => {
    const user = await signedInUser();
    expect(await user.getBilling()).toEqual({ hasCustomer: false, defaultPaymentMethod: null });

    const intent = await user.createPaymentMethodSetupIntent();
    expect(intent).toEqual({
      clientSecret: expect.stringMatching(/^seti_/),
      stripeAccountId: accountId,
      // The project's own key, on its own account: Stripe.js names no connected account.
      cardForm: { publishableKey, stripeAccountId: null },
    });
    // Asking made the user a Stripe customer: the cached billing is read again.
    expect(await user.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: null });

    const setupIntentId = intentIdOf(intent.clientSecret);
    await expect(user.setDefaultPaymentMethodFromSetupIntent(setupIntentId)).rejects.toThrow(/Setup intent has not succeeded\./);
    const cardId = stripe.billing.succeedSetupIntent(setupIntentId, { brand: "visa", last4: "1111", exp_month: 2, exp_year: 2033 });
    const card = { id: cardId, brand: "visa", last4: "1111", exp_month: 2, exp_year: 2033 };
    expect(await user.setDefaultPaymentMethodFromSetupIntent(setupIntentId)).toEqual(card);
    expect(await user.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: card });

    const serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    expect(await (await serverApp.getUser(user.id))!.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: card });
  });

  it("lists the invoices of the user's subscription, newest first, a page at a time", async () => {
    const user = await signedInUser();
    const fullCode = new URL(await user.createCheckoutUrl({ productId: "pro" })).pathname.split("/").pop()!;
    const session = await fetch(`${baseUrl}/api/v1/payments/purchases/purchase-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ full_code: fullCode, price_id: "monthly", quantity: 1 }),
    });
    expect(session.status).toBe(200);
    const subscription = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.id)!.json.id;
    const start = 1_800_000_000;
    for (const [n, status] of ["paid", "open"].entries()) {
      const created = start + n * 30 * 86400;
      const invoice = stripeInvoice({
        id: `in_${n}`,
        subscription,
        status,
        total: 1000,
        created,
        hostedInvoiceUrl: `https://pay.test/${n}`,
      });
      await deliver({ ...stripeEvent(status === "paid" ? "invoice.paid" : "invoice.finalized", invoice), created });
    }

    const first = await user.listInvoices({ limit: 1 });
    expect([...first]).toEqual([
      { createdAt: new Date((start + 30 * 86400) * 1000), status: "open", amountTotal: 1000, hostedInvoiceUrl: "https://pay.test/1" },
    ]);
    expect(first.nextCursor).not.toBeNull();
    const second = await user.listInvoices({ limit: 1, cursor: first.nextCursor! });
    expect(second.map((i) => [i.status, i.createdAt.getTime()])).toEqual([["paid", start * 1000]]);
    expect(second.nextCursor).toBeNull();
  });

  it("a team's admin and a server app reach the team's billing", async () => {
    const user = await signedInUser();
    const team = await user.createTeam({ displayName: "Billing crew" });
    expect(await team.getBilling()).toEqual({ hasCustomer: false, defaultPaymentMethod: null });
    const intent = await team.createPaymentMethodSetupIntent();
    const cardId = stripe.billing.succeedSetupIntent(intentIdOf(intent.clientSecret));
    expect(await team.setDefaultPaymentMethodFromSetupIntent(intentIdOf(intent.clientSecret))).toMatchObject({ id: cardId });

    const serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
    const serverTeam = (await serverApp.getTeam(team.id))!;
    expect(await serverTeam.getBilling()).toMatchObject({ hasCustomer: true, defaultPaymentMethod: { id: cardId } });
    const invoices = await serverTeam.listInvoices();
    expect([...invoices]).toEqual([]);
    expect(invoices.nextCursor).toBeNull();
  });
});
