/**
 * How the purchase page takes a card (POST /payments/purchases/card-settings):
 * the publishable key Stripe.js is loaded with and the account it acts on, for
 * a connected account (the operator's platform key) and for a project's own
 * account (its own publishable key, kept sealed with its secret key); the
 * answer for a code already used by its payment, and whether the app's return
 * URL is trusted. Unknown and expired codes are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentStripeAccounts } from "../src/capabilities/payments/account-schema.ts";
import { eq } from "drizzle-orm";
import { createProject, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { stripePurchaseKit } from "./payments-stripe-kit.ts";
import { startStripeStandIn, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformcardsecret0123";
const PLATFORM_PUBLISHABLE_KEY = "pk_test_platformcard0123";
const TRUSTED = "https://shop.example.com/after";
const PAYMENTS = { products: { lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } } } } };
const STRICT_DOMAINS = { allow_localhost: false, domains: [{ domain: "https://shop.example.com", handler_path: "/handler" }] };

let stripe: StripeStandIn;
let server: TestServer;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  server = await createTestServer({
    stripe: { secretKey: stripe.platformKey, webhookSecret: WEBHOOK_SECRET, publishableKey: PLATFORM_PUBLISHABLE_KEY, apiUrl: stripe.url },
  });
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

const { configure, purchaseCode, session } = stripePurchaseKit({
  server: () => server,
  stripe: () => stripe,
  payments: PAYMENTS,
  webhookSecret: WEBHOOK_SECRET,
});

const cardSettings = (body: unknown) => server.request("/payments/purchases/card-settings", { method: "POST", body });

async function connected(): Promise<{ project: Project; accountId: string }> {
  const project = await createProject(server, undefined, STRICT_DOMAINS);
  await configure(project, { ...PAYMENTS, testMode: false });
  const res = await server.request("/internal/payments/setup", { method: "POST", as: project.admin });
  expect(res.status, res.text).toBe(200);
  const [row] = await server.instance.services.db
    .select()
    .from(paymentStripeAccounts)
    .where(eq(paymentStripeAccounts.projectId, project.id));
  return { project, accountId: row!.stripeAccountId };
}

async function ownKeyProject(publishableKey?: string): Promise<Project> {
  const project = await createProject(server, undefined, STRICT_DOMAINS);
  await configure(project, { ...PAYMENTS, testMode: false });
  const { secretKey } = stripe.addOwnAccount({ charges_enabled: true });
  const res = await server.request("/internal/payments/stripe/own-key", {
    method: "POST",
    as: project.admin,
    body: { secret_key: secretKey, webhook_secret: "whsec_owncard42", ...(publishableKey ? { publishable_key: publishableKey } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return project;
}

describe("card-settings", () => {
  it("answers the platform's key and the connected account, and still does once the payment used the code", async () => {
    const { project, accountId } = await connected();
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    const expected = { publishable_key: PLATFORM_PUBLISHABLE_KEY, stripe_account_id: accountId };
    const res = await cardSettings({ full_code: fullCode, return_url: TRUSTED });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ...expected, return_url_trusted: true });

    const paid = await session({ full_code: fullCode, price_id: "once", quantity: 1 });
    expect(paid.status, paid.text).toBe(200);
    // The code is used up: the purchase page no longer reads it, the return page still may.
    expectKnownError(
      await server.request("/payments/purchases/validate-code", { method: "POST", body: { full_code: fullCode } }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    expect((await cardSettings({ full_code: fullCode, return_url: TRUSTED })).body).toEqual({ ...expected, return_url_trusted: true });
  });

  it("says whether the return URL is trusted: another domain, another scheme, none given", async () => {
    const { project } = await connected();
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    const trusted = async (returnUrl?: string) =>
      (await cardSettings({ full_code: fullCode, ...(returnUrl ? { return_url: returnUrl } : {}) })).body.return_url_trusted;
    expect(await trusted("https://evil.example.net/after")).toBe(false);
    expect(await trusted("http://shop.example.com/after")).toBe(false);
    expect(await trusted("http://localhost:3000/after")).toBe(false);
    expect(await trusted()).toBe(false);
    expect(await trusted(TRUSTED)).toBe(true);
    const bad = await cardSettings({ full_code: fullCode, return_url: "not a url" });
    expectKnownError(bad, "SCHEMA_ERROR", 400);
  });

  it("is 404 for an unknown code and another project's", async () => {
    const { project } = await connected();
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    expectKnownError(await cardSettings({ full_code: `${project.id}_${"a".repeat(45)}` }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await cardSettings({ full_code: "nonsense" }), "VERIFICATION_CODE_NOT_FOUND", 404);
    const other = await createProject(server);
    expectKnownError(
      await cardSettings({ full_code: `${other.id}${fullCode.slice(fullCode.indexOf("_"))}` }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    expectKnownError(await cardSettings({}), "SCHEMA_ERROR", 400);
  });

  it("answers no key for a project without a Stripe account (test mode)", async () => {
    const project = await createProject(server);
    await configure(project, PAYMENTS);
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    expect((await cardSettings({ full_code: fullCode })).body).toEqual({
      publishable_key: null,
      stripe_account_id: null,
      return_url_trusted: false,
    });
  });

  it("answers an own-key project's own publishable key, on no connected account; none when it gave none", async () => {
    const project = await ownKeyProject("pk_test_ownshop42");
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    expect((await cardSettings({ full_code: fullCode, return_url: TRUSTED })).body).toEqual({
      publishable_key: "pk_test_ownshop42",
      stripe_account_id: null,
      return_url_trusted: true,
    });

    const without = await ownKeyProject();
    const buyer = await signUpUser(server, without);
    expect((await cardSettings({ full_code: await purchaseCode(without, buyer.userId, "lifetime") })).body).toMatchObject({
      publishable_key: null,
      stripe_account_id: null,
    });
  });

  it("refuses an own key whose publishable key is not one", async () => {
    const project = await createProject(server);
    const { secretKey } = stripe.addOwnAccount();
    for (const publishable of ["sk_test_secret", "pk_", "pk_test with space"]) {
      const res = await server.request("/internal/payments/stripe/own-key", {
        method: "POST",
        as: project.admin,
        body: { secret_key: secretKey, webhook_secret: "whsec_owncard42", publishable_key: publishable },
      });
      expectKnownError(res, "SCHEMA_ERROR", 400);
      expect(res.text, publishable).toContain("body.publishable_key does not match the required format");
    }
  });

  // Last: the clock moves a day on, past the test keys' own expiry.
  it("is 404 once the code expired, used or not", async () => {
    const { project } = await connected();
    const user = await signUpUser(server, project);
    const unused = await purchaseCode(project, user.userId, "lifetime");
    const used = await purchaseCode(project, user.userId, "lifetime");
    expect((await session({ full_code: used, price_id: "once", quantity: 1 })).status).toBe(200);
    server.clock.advance(24 * 60 * 60 * 1000 - 1000);
    expect((await cardSettings({ full_code: used })).status).toBe(200);
    server.clock.advance(2000);
    expectKnownError(await cardSettings({ full_code: unused }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await cardSettings({ full_code: used }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});
