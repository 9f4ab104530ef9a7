/**
 * The admin app's payments setup calls against a real server whose Stripe is
 * the loopback stand-in (server/test/stripe-stand-in.ts): Connect onboarding
 * (`setupPayments`), the account's state (`getStripeAccountInfo`, null before
 * any setup), embedded components' sessions, and the project's own key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors } from "@latchkey/shared";
import { startStripeStandIn, type StripeStandIn } from "../../../server/test/stripe-stand-in.ts";
import { createSdkProject } from "./fixtures.ts";
import { startServer, type TestServer } from "./support.ts";

let stripe: StripeStandIn;
let server: TestServer;
let baseUrl: string;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  ({ server, baseUrl } = await startServer({ stripe: { secretKey: stripe.platformKey, webhookSecret: null, apiUrl: stripe.url } }));
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

describe("StackAdminApp's payments setup", () => {
  it("answers null before setup, an onboarding URL on setup, and the account's state after", async () => {
    const admin = (await createSdkProject(baseUrl)).project.app;
    expect(await admin.getStripeAccountInfo()).toBeNull();
    const { url } = await admin.setupPayments();
    const info = await admin.getStripeAccountInfo();
    expect(info).toEqual({
      account_id: expect.stringMatching(/^acct_/),
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
    });
    expect(url).toContain(`/setup/s/${info!.account_id}/`);

    stripe.updateAccount(info!.account_id, { charges_enabled: true, details_submitted: true, payouts_enabled: true });
    expect(await admin.getStripeAccountInfo()).toMatchObject({ charges_enabled: true, details_submitted: true, payouts_enabled: true });
    expect(await admin.createStripeWidgetAccountSession()).toEqual({ client_secret: expect.stringMatching(/^accs_secret__/) });
  });

  it("sets the project's own key, and rejects one Stripe refuses", async () => {
    const admin = (await createSdkProject(baseUrl)).project.app;
    const { secretKey, account } = stripe.addOwnAccount({ charges_enabled: true });
    await expect(admin.setStripeOwnKey({ secretKey: "sk_test_unknown", webhookSecret: "whsec_abc" })).rejects.toThrow(
      /Stripe refused this secret key/,
    );
    expect(await admin.getStripeAccountInfo()).toBeNull();
    expect(await admin.setStripeOwnKey({ secretKey, webhookSecret: "whsec_abc" })).toEqual({
      account_id: account.id,
      charges_enabled: true,
      details_submitted: false,
      payouts_enabled: false,
    });
    expect(await admin.getStripeAccountInfo()).toMatchObject({ account_id: account.id });
    await expect(admin.setStripeOwnKey({ secretKey: "pk_test_publishable", webhookSecret: "whsec_abc" })).rejects.toBeInstanceOf(
      KnownErrors.SchemaError,
    );
  });
});
