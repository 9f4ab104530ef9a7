/**
 * A project's Stripe account (WIRE-next §5.6) against a stand-in for Stripe's
 * API (stripe-stand-in.ts), reached through the `stripe` package: Connect
 * onboarding (POST /internal/payments/setup), the account's state
 * (GET …/stripe/account-info), embedded components' sessions
 * (POST …/stripe-widgets/account-session), a project's own secret key
 * instead (POST …/stripe/own-key, sealed at rest), admin access only; and
 * Stripe's webhooks: believed only when signed as Stripe signs, each event
 * applied once however often it is delivered.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localKeyId, localSealer } from "../src/capabilities/data-vault/domain/local-sealer.ts";
import { rotateStripeOwnKeys } from "../src/capabilities/payments/domain/stripe-account.ts";
import { paymentStripeAccounts, paymentStripeEvents } from "../src/capabilities/payments/schema.ts";
import { configFromEnv } from "../src/config.ts";
import { StartupError } from "../src/process/startup-error.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { withStripeStandIn } from "./payments-stripe-kit.ts";
import { signedDelivery, stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformtestsecret0123456789";

let stripe: StripeStandIn;
let server: TestServer;

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));
beforeEach(() => {
  stripe.down = false;
});

const setup = (as: Auth) => server.request("/internal/payments/setup", { method: "POST", as });
const accountInfo = (as: Auth) => server.request("/internal/payments/stripe/account-info", { as });
const accountSession = (as: Auth) => server.request("/internal/payments/stripe-widgets/account-session", { method: "POST", as });
const ownKey = (as: Auth, body: unknown) => server.request("/internal/payments/stripe/own-key", { method: "POST", as, body });

/** Delivers an event to a webhook endpoint, signed with `secret` now (the server's clock) unless told otherwise. */
function deliver(path: string, event: unknown, secret: string, options: { atMillis?: number; signature?: string | null } = {}) {
  const signed = signedDelivery(event, secret, options.atMillis ?? server.clock.now());
  const signature = options.signature === undefined ? signed.signature : options.signature;
  return server.request(path, {
    method: "POST",
    body: signed.body,
    headers: { "content-type": "application/json; charset=utf-8", ...(signature === null ? {} : { "stripe-signature": signature }) },
  });
}
const PLATFORM_HOOK = "/integrations/stripe/webhooks";
const DAY = 24 * 60 * 60 * 1000;

async function storedAccount(p: Project) {
  const [row] = await server.instance.services.db
    .select()
    .from(paymentStripeAccounts)
    .where(and(eq(paymentStripeAccounts.projectId, p.id), eq(paymentStripeAccounts.branchId, "main")));
  return row ?? null;
}

async function recordedEvents(p: Project) {
  return server.instance.services.db.select().from(paymentStripeEvents).where(eq(paymentStripeEvents.projectId, p.id));
}

/** A project onboarded with Connect, and its connected account's id. */
async function connectedProject(): Promise<{ project: Project; accountId: string }> {
  const project = await createProject(server);
  const res = await setup(project.admin);
  expect(res.status, res.text).toBe(200);
  return { project, accountId: (await storedAccount(project))!.stripeAccountId };
}

describe("Connect onboarding", () => {
  it("answers STRIPE_ACCOUNT_INFO_NOT_FOUND before setup, and an onboarding link after it", async () => {
    const project = await createProject(server);
    expectKnownError(await accountInfo(project.admin), "STRIPE_ACCOUNT_INFO_NOT_FOUND", 404);

    const before = stripe.received.length;
    const res = await setup(project.admin);
    expect(res.status, res.text).toBe(200);
    const row = await storedAccount(project);
    expect(row).toMatchObject({ kind: "connect", chargesEnabled: false, keyId: null, sealedSecrets: null });
    expect(res.body).toEqual({
      url: expect.stringMatching(new RegExp(`^https://connect\\.stripe\\.test/setup/s/${row!.stripeAccountId}/`)),
    });

    const calls = stripe.received.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /v1/accounts", "POST /v1/account_links"]);
    expect(calls.every((c) => c.apiKey === stripe.platformKey)).toBe(true);
    expect(calls[0]!.form).toMatchObject({ "metadata[latchkey_project_id]": project.id, "controller[stripe_dashboard][type]": "none" });
    expect(calls[1]!.form).toMatchObject({
      account: row!.stripeAccountId,
      type: "account_onboarding",
      return_url: `${server.config.apiUrl}/projects/${project.id}/payments`,
    });

    const info = await accountInfo(project.admin);
    expect(info.status, info.text).toBe(200);
    expect(info.body).toEqual({
      account_id: row!.stripeAccountId,
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
    });
  });

  it("onboards the same account again on a second setup (a new link, no new account)", async () => {
    const { project, accountId } = await connectedProject();
    const before = stripe.received.length;
    const again = await setup(project.admin);
    expect(again.status, again.text).toBe(200);
    expect(again.body.url).toContain(`/setup/s/${accountId}/`);
    expect(stripe.received.slice(before).map((c) => c.path)).toEqual(["/v1/account_links"]);
    expect((await storedAccount(project))!.stripeAccountId).toBe(accountId);
  });

  it("makes one account for setups that race", async () => {
    const project = await createProject(server);
    const both = await Promise.all([setup(project.admin), setup(project.admin)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const accountId = (await storedAccount(project))!.stripeAccountId;
    for (const res of both) expect(res.body.url).toContain(`/setup/s/${accountId}/`);
    const made = [...stripe.accounts.values()].filter((a) => a.metadata.latchkey_project_id === project.id);
    expect(made.map((a) => a.id)).toEqual([accountId]);
  });

  it("reads the account's state from Stripe and keeps it", async () => {
    const { project, accountId } = await connectedProject();
    stripe.updateAccount(accountId, { charges_enabled: true, details_submitted: true, payouts_enabled: true });
    const info = await accountInfo(project.admin);
    expect(info.body).toEqual({ account_id: accountId, charges_enabled: true, details_submitted: true, payouts_enabled: true });
    expect(await storedAccount(project)).toMatchObject({ chargesEnabled: true, detailsSubmitted: true, payoutsEnabled: true });
    // Stripe out: what was stored last.
    stripe.down = true;
    stripe.updateAccount(accountId, { charges_enabled: false });
    const stale = await accountInfo(project.admin);
    expect(stale.status, stale.text).toBe(200);
    expect(stale.body.charges_enabled).toBe(true);
  });

  it("answers 502 and stores nothing when Stripe is out during setup", async () => {
    const project = await createProject(server);
    stripe.down = true;
    const res = await setup(project.admin);
    expect(res.status, res.text).toBe(502);
    expect(await storedAccount(project)).toBeNull();
  });

  it("makes embedded component sessions for the connected account only", async () => {
    const { project, accountId } = await connectedProject();
    const res = await accountSession(project.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ client_secret: expect.stringMatching(/^accs_secret__/) });
    expect(stripe.received.at(-1)).toMatchObject({
      path: "/v1/account_sessions",
      apiKey: stripe.platformKey,
      form: { account: accountId },
    });

    const none = await createProject(server);
    const refused = await accountSession(none.admin);
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("Stripe account ID is not set");
  });

  it("keeps projects apart", async () => {
    const { accountId } = await connectedProject();
    const other = await createProject(server);
    expectKnownError(await accountInfo(other.admin), "STRIPE_ACCOUNT_INFO_NOT_FOUND", 404);
    const otherSetup = await setup(other.admin);
    expect(otherSetup.body.url).not.toContain(accountId);
  });
});

describe("admin access only", () => {
  it("refuses client and server keys on every account endpoint, and changes nothing", async () => {
    const project = await createProject(server);
    const { secretKey } = stripe.addOwnAccount();
    for (const as of [project.client, project.server]) {
      expectKnownError(await setup(as), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await accountInfo(as), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await accountSession(as), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await ownKey(as, { secret_key: secretKey, webhook_secret: "whsec_abc" }), "INSUFFICIENT_ACCESS_TYPE", 401);
    }
    expectKnownError(await server.request("/internal/payments/setup", { method: "POST" }), "ACCESS_TYPE_REQUIRED");
    expect(await storedAccount(project)).toBeNull();
  });

  it("accepts the owner's dashboard session", async () => {
    const project = await createProject(server);
    const res = await setup(project.ownerAdmin);
    expect(res.status, res.text).toBe(200);
  });
});

describe("a project's own Stripe key", () => {
  const OWN_WEBHOOK_SECRET = "whsec_ownprojectsecret987654321";

  it("checks the key with Stripe, keeps it sealed, and reads the account with it", async () => {
    const project = await createProject(server);
    const { secretKey, account } = stripe.addOwnAccount({ charges_enabled: true, details_submitted: true });
    const res = await ownKey(project.admin, { secret_key: secretKey, webhook_secret: OWN_WEBHOOK_SECRET });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ account_id: account.id, charges_enabled: true, details_submitted: true, payouts_enabled: false });
    expect(stripe.received.at(-1)).toMatchObject({ method: "GET", path: "/v1/account", apiKey: secretKey });

    const row = (await storedAccount(project))!;
    expect(row).toMatchObject({ kind: "own_key", stripeAccountId: account.id });
    expect(row.keyId).toMatch(/^local-/);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secretKey);
    expect(stored).not.toContain(OWN_WEBHOOK_SECRET);

    stripe.updateAccount(account.id, { payouts_enabled: true });
    const info = await accountInfo(project.admin);
    expect(info.body).toEqual({ account_id: account.id, charges_enabled: true, details_submitted: true, payouts_enabled: true });
    expect(stripe.received.at(-1)).toMatchObject({ path: "/v1/account", apiKey: secretKey });
  });

  it("refuses a key Stripe refuses, and keeps what the project had", async () => {
    const project = await createProject(server);
    const refused = await ownKey(project.admin, { secret_key: "sk_test_notakeystripeknows", webhook_secret: OWN_WEBHOOK_SECRET });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Stripe refused this secret key: Invalid API Key provided/);
    expectKnownError(await accountInfo(project.admin), "STRIPE_ACCOUNT_INFO_NOT_FOUND", 404);

    const { project: connected, accountId } = await connectedProject();
    expect((await ownKey(connected.admin, { secret_key: "sk_test_stillwrong", webhook_secret: OWN_WEBHOOK_SECRET })).status).toBe(400);
    expect(await storedAccount(connected)).toMatchObject({ kind: "connect", stripeAccountId: accountId });
  });

  it("refuses what is not a secret key or signing secret (SCHEMA_ERROR), before asking Stripe", async () => {
    const project = await createProject(server);
    const before = stripe.received.length;
    for (const body of [
      { secret_key: "pk_test_publishable", webhook_secret: OWN_WEBHOOK_SECRET },
      { secret_key: stripe.addOwnAccount().secretKey, webhook_secret: "not-a-secret" },
      { secret_key: stripe.addOwnAccount().secretKey },
      {},
    ]) {
      expectKnownError(await ownKey(project.admin, body), "SCHEMA_ERROR", 400);
    }
    expect(stripe.received.length).toBe(before);
    expect(await storedAccount(project)).toBeNull();
  });

  it("replaces a Connect account; then setup and embedded sessions are refused", async () => {
    const { project } = await connectedProject();
    const { secretKey, account } = stripe.addOwnAccount();
    expect((await ownKey(project.admin, { secret_key: secretKey, webhook_secret: OWN_WEBHOOK_SECRET })).status).toBe(200);
    expect(await storedAccount(project)).toMatchObject({ kind: "own_key", stripeAccountId: account.id });
    for (const res of [await setup(project.admin), await accountSession(project.admin)]) {
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/its own Stripe account/);
    }
  });

  it("stays readable through a rotation of the data vault's secrets (latchkey vault-rotate)", async () => {
    const services = server.instance.services;
    const original = services.dataVaultSealer;
    const [OLD, NEW] = [randomBytes(32).toString("hex"), randomBytes(32).toString("hex")];
    const project = await createProject(server);
    const { secretKey, account } = stripe.addOwnAccount();
    try {
      services.dataVaultSealer = localSealer([OLD]);
      expect((await ownKey(project.admin, { secret_key: secretKey, webhook_secret: OWN_WEBHOOK_SECRET })).status).toBe(200);
      expect((await storedAccount(project))!.keyId).toBe(localKeyId(OLD));
      // The other tests' keys are under the server secret: listed too, so that they move with this one.
      services.dataVaultSealer = localSealer([NEW, OLD, server.config.serverSecret]);
      expect(await rotateStripeOwnKeys(services.db, services.dataVaultSealer)).toBeGreaterThanOrEqual(1);
      expect(await rotateStripeOwnKeys(services.db, services.dataVaultSealer)).toBe(0);
      services.dataVaultSealer = localSealer([NEW]);
      expect((await storedAccount(project))!.keyId).toBe(localKeyId(NEW));
      const info = await accountInfo(project.admin);
      expect(info.status, info.text).toBe(200);
      expect(info.body.account_id).toBe(account.id);
      expect(stripe.received.at(-1)).toMatchObject({ path: "/v1/account", apiKey: secretKey });
    } finally {
      await rotateStripeOwnKeys(services.db, localSealer([server.config.serverSecret, NEW, OLD]));
      services.dataVaultSealer = original;
    }
  });

  it("answers setup plainly on a server without a platform account, where the own key still works", async () => {
    const bare = await createTestServer({ stripe: { secretKey: null, webhookSecret: null, apiUrl: stripe.url } });
    try {
      const project = await createProject(bare);
      const res = await bare.request("/internal/payments/setup", { method: "POST", as: project.admin });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/LATCHKEY_STRIPE_SECRET_KEY/);
      const { secretKey } = stripe.addOwnAccount();
      const own = await bare.request("/internal/payments/stripe/own-key", {
        method: "POST",
        as: project.admin,
        body: { secret_key: secretKey, webhook_secret: OWN_WEBHOOK_SECRET },
      });
      expect(own.status, own.text).toBe(200);
      // No platform webhook secret: nothing at the platform's endpoint is believed.
      const event = stripeEvent("account.updated", { id: "acct_x", object: "account" }, "acct_x");
      const signed = signedDelivery(event, WEBHOOK_SECRET, bare.clock.now());
      const hook = await bare.request(PLATFORM_HOOK, {
        method: "POST",
        body: signed.body,
        headers: { "content-type": "application/json", "stripe-signature": signed.signature },
      });
      expect(hook.status).toBe(400);
    } finally {
      await bare.close();
    }
  });
});

describe("Stripe webhooks", () => {
  const accountUpdated = (accountId: string, state: { charges_enabled: boolean; payouts_enabled?: boolean }, connect = true) =>
    stripeEvent(
      "account.updated",
      { ...stripe.accounts.get(accountId), ...state, details_submitted: true, payouts_enabled: state.payouts_enabled ?? false },
      connect ? accountId : undefined,
    );

  it("applies a Connect account.updated signed with the platform's secret", async () => {
    const { project, accountId } = await connectedProject();
    const res = await deliver(PLATFORM_HOOK, accountUpdated(accountId, { charges_enabled: true, payouts_enabled: true }), WEBHOOK_SECRET);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await storedAccount(project)).toMatchObject({ chargesEnabled: true, detailsSubmitted: true, payoutsEnabled: true });
    expect((await recordedEvents(project)).map((e) => e.type)).toEqual(["account.updated"]);
  });

  it("applies an event once however often it is delivered", async () => {
    const { project, accountId } = await connectedProject();
    const enabled = accountUpdated(accountId, { charges_enabled: true });
    const disabled = accountUpdated(accountId, { charges_enabled: false });
    expect((await deliver(PLATFORM_HOOK, enabled, WEBHOOK_SECRET)).status).toBe(200);
    expect((await deliver(PLATFORM_HOOK, disabled, WEBHOOK_SECRET)).status).toBe(200);
    expect((await storedAccount(project))!.chargesEnabled).toBe(false);
    // Stripe delivers the first again (a lost answer): acknowledged, not applied again.
    const again = await deliver(PLATFORM_HOOK, enabled, WEBHOOK_SECRET);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ received: true });
    expect((await storedAccount(project))!.chargesEnabled).toBe(false);
    // And twice at once: one applies.
    const third = accountUpdated(accountId, { charges_enabled: true });
    const both = await Promise.all([deliver(PLATFORM_HOOK, third, WEBHOOK_SECRET), deliver(PLATFORM_HOOK, third, WEBHOOK_SECRET)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const ids = (await recordedEvents(project)).map((e) => e.eventId).sort();
    expect(ids).toEqual([enabled.id, disabled.id, third.id].sort());
    expect((await storedAccount(project))!.chargesEnabled).toBe(true);
  });

  it("verifies the bytes as they came over a socket, small (read before routing) or large (streamed)", async () => {
    const base = await server.listen();
    const { project, accountId } = await connectedProject();
    const post = (event: unknown) => {
      const signed = signedDelivery(event, WEBHOOK_SECRET, server.clock.now());
      return fetch(`${base}/api/v1${PLATFORM_HOOK}`, {
        method: "POST",
        body: signed.body,
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signed.signature },
      });
    };
    const small = await post(accountUpdated(accountId, { charges_enabled: true }));
    expect(small.status, await small.text()).toBe(200);
    expect((await storedAccount(project))!.chargesEnabled).toBe(true);
    const large = accountUpdated(accountId, { charges_enabled: false });
    (large.data as { object: { metadata: Record<string, string> } }).object.metadata = { padding: "é".repeat(80 * 1024) };
    const streamed = await post(large);
    expect(streamed.status, await streamed.text()).toBe(200);
    expect((await storedAccount(project))!.chargesEnabled).toBe(false);
  });

  it("refuses a delivery not signed as Stripe signs it (400), and applies nothing", async () => {
    const { project, accountId } = await connectedProject();
    const event = accountUpdated(accountId, { charges_enabled: true });
    const refusals = [
      await deliver(PLATFORM_HOOK, event, "whsec_someoneelsessecret"),
      await deliver(PLATFORM_HOOK, event, WEBHOOK_SECRET, { signature: null }),
      await deliver(PLATFORM_HOOK, event, WEBHOOK_SECRET, { signature: "t=1,v1=deadbeef" }),
      // Signed more than five minutes ago (a replay).
      await deliver(PLATFORM_HOOK, event, WEBHOOK_SECRET, { atMillis: server.clock.now() - 6 * 60 * 1000 }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(res.text).toBe("Invalid stripe-signature header");
    }
    // A body changed after signing.
    const signed = signedDelivery(event, WEBHOOK_SECRET, server.clock.now());
    const tampered = await server.request(PLATFORM_HOOK, {
      method: "POST",
      body: signed.body.replace('"charges_enabled": true', '"charges_enabled": false'),
      headers: { "content-type": "application/json", "stripe-signature": signed.signature },
    });
    expect(tampered.status).toBe(400);
    expect(await storedAccount(project)).toMatchObject({ chargesEnabled: false });
    expect(await recordedEvents(project)).toEqual([]);
  });

  it("acknowledges events for accounts no project has, and types no handler wants, recording nothing", async () => {
    const { project, accountId } = await connectedProject();
    const unknown = await deliver(PLATFORM_HOOK, accountUpdated(accountId, { charges_enabled: true }), WEBHOOK_SECRET);
    expect(unknown.status).toBe(200);
    await server.instance.services.db.delete(paymentStripeEvents).where(eq(paymentStripeEvents.projectId, project.id));
    const stranger = stripeEvent("account.updated", { id: "acct_nobodys", object: "account", charges_enabled: true }, "acct_nobodys");
    expect((await deliver(PLATFORM_HOOK, stranger, WEBHOOK_SECRET)).status).toBe(200);
    const other = stripeEvent("balance.available", { object: "balance" }, accountId);
    expect((await deliver(PLATFORM_HOOK, other, WEBHOOK_SECRET)).status).toBe(200);
    expect(await recordedEvents(project)).toEqual([]);
  });

  it("applies a project's own account's events at its own endpoint, signed with its own secret only", async () => {
    const project = await createProject(server);
    const ownSecret = "whsec_projectownsecret555";
    const { secretKey, account } = stripe.addOwnAccount();
    expect((await ownKey(project.admin, { secret_key: secretKey, webhook_secret: ownSecret })).status).toBe(200);
    const hook = `/integrations/stripe/webhooks/${project.id}`;
    const event = stripeEvent("account.updated", { ...account, charges_enabled: true, details_submitted: true });

    expect((await deliver(hook, event, WEBHOOK_SECRET)).status).toBe(400);
    expect((await deliver(PLATFORM_HOOK, event, ownSecret)).status).toBe(400);
    expect((await storedAccount(project))!.chargesEnabled).toBe(false);

    const res = await deliver(hook, event, ownSecret);
    expect(res.status, res.text).toBe(200);
    expect(await storedAccount(project)).toMatchObject({ chargesEnabled: true, detailsSubmitted: true });
    expect((await deliver(hook, event, ownSecret)).status).toBe(200);
    expect(await recordedEvents(project)).toHaveLength(1);
  });

  it("forgets applied events' ids after 90 days (housekeeping), well after Stripe stops redelivering them", async () => {
    const { project, accountId } = await connectedProject();
    const event = accountUpdated(accountId, { charges_enabled: true });
    expect((await deliver(PLATFORM_HOOK, event, WEBHOOK_SECRET)).status).toBe(200);
    const housekeeping = server.instance.services.housekeeping;
    await server.clock.ahead(89 * DAY, () => housekeeping.run());
    expect(await recordedEvents(project)).toHaveLength(1);
    const result = (await server.clock.ahead(91 * DAY, () => housekeeping.run())) as Record<string, number>;
    expect(result.oldStripeEventIds).toBeGreaterThanOrEqual(1);
    expect(await recordedEvents(project)).toEqual([]);
  });

  it("refuses deliveries at the endpoint of a project without its own key, or of no project", async () => {
    const { project, accountId } = await connectedProject();
    const event = accountUpdated(accountId, { charges_enabled: true }, false);
    expect((await deliver(`/integrations/stripe/webhooks/${project.id}`, event, WEBHOOK_SECRET)).status).toBe(400);
    expect((await deliver("/integrations/stripe/webhooks/no-such-project", event, WEBHOOK_SECRET)).status).toBe(400);
    expect(await recordedEvents(project)).toEqual([]);
  });
});

describe("the operator's configuration (LATCHKEY_STRIPE_*)", () => {
  it("reads the platform key, webhook secret and API address, Stripe's own by default", () => {
    expect(configFromEnv({}).stripe).toEqual({
      secretKey: null,
      webhookSecret: null,
      publishableKey: null,
      apiUrl: "https://api.stripe.com",
    });
    expect(
      configFromEnv({
        LATCHKEY_STRIPE_SECRET_KEY: "sk_live_platform",
        LATCHKEY_STRIPE_WEBHOOK_SECRET: "whsec_platform",
        LATCHKEY_STRIPE_PUBLISHABLE_KEY: "pk_live_platform",
        LATCHKEY_STRIPE_API_URL: "http://127.0.0.1:12111/",
      }).stripe,
    ).toEqual({
      secretKey: "sk_live_platform",
      webhookSecret: "whsec_platform",
      publishableKey: "pk_live_platform",
      apiUrl: "http://127.0.0.1:12111",
    });
  });

  it("refuses to start with a webhook secret but no key, or an API address that is not an origin", () => {
    expect(() => configFromEnv({ LATCHKEY_STRIPE_WEBHOOK_SECRET: "whsec_x" })).toThrow(StartupError);
    expect(() => configFromEnv({ LATCHKEY_STRIPE_PUBLISHABLE_KEY: "pk_test_x" })).toThrow(/needs LATCHKEY_STRIPE_SECRET_KEY/);
    expect(() => configFromEnv({ LATCHKEY_STRIPE_SECRET_KEY: "sk_test_x", LATCHKEY_STRIPE_PUBLISHABLE_KEY: "sk_test_x" })).toThrow(
      /must be a Stripe publishable key/,
    );
    for (const url of ["api.stripe.com", "ftp://api.stripe.com", "https://api.stripe.com/v1"]) {
      expect(() => configFromEnv({ LATCHKEY_STRIPE_API_URL: url })).toThrow(/LATCHKEY_STRIPE_API_URL must be/);
    }
  });
});

describe("purchases outside test mode", () => {
  it("make a purchase URL once the project has an account, and the purchase page sees it", async () => {
    const { project, accountId } = await connectedProject();
    const config = await server.request("/internal/config/override/environment", {
      method: "PATCH",
      as: project.admin,
      body: {
        config_override_string: JSON.stringify({
          "payments.testMode": false,
          "payments.products.pro": { customerType: "custom", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
        }),
      },
    });
    expect(config.status, config.text).toBe(200);
    const made = await server.request("/payments/purchases/create-purchase-url", {
      method: "POST",
      as: project.server,
      body: { customer_type: "custom", customer_id: "org-1", product_id: "pro" },
    });
    expect(made.status, made.text).toBe(200);
    const fullCode = new URL(made.body.url as string).pathname.split("/").at(-1)!;
    const validated = await server.request("/payments/purchases/validate-code", { method: "POST", body: { full_code: fullCode } });
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body).toMatchObject({ stripe_account_id: accountId, test_mode: false });
    expect(typeof validated.body.charges_enabled).toBe("boolean");
  });
});
