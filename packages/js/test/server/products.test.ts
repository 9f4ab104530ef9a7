/**
 * Products through the SDK against a real server: listing a user's, a team's
 * and a custom customer's products (on the app, the user and the team), the
 * checkout URL and a test-mode purchase made with it, a server's grants
 * (configured and inline), cancelling a subscription, the admin app's test
 * clock, what is refused, and the cached reads following the SDK's changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, StackAdminApp, StackServerApp, type StackClientApp } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { nextSnapshot, PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let serverApp: StackServerApp;
let adminApp: StackAdminApp;

const monthly = { USD: "10", interval: [1, "month"] as [number, "month"] };

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl, { clientTeamCreationEnabled: true });
  await project.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.items.seats": { displayName: "Seats", customerType: "team" },
    "payments.productLines.plans": { customerType: "user" },
    "payments.products.pro": {
      displayName: "Pro",
      productLineId: "plans",
      prices: { monthly },
      includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
    },
    "payments.products.lifetime": { displayName: "Lifetime", prices: { once: { USD: "50" } } },
    "payments.products.hidden": { displayName: "Hidden", serverOnly: true, prices: { once: { USD: "5" } } },
    "payments.products.team-plan": {
      displayName: "Team plan",
      customerType: "team",
      prices: { monthly },
      includedItems: { seats: { quantity: 3, expires: "when-purchase-expires" } },
    },
  });
  serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  adminApp = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });
});
afterAll(() => server?.close());

async function signedUp(app: StackClientApp = clientAppOf(baseUrl, project)) {
  const result = await app.signUpWithCredential({ email: uniqueEmail("products"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return { app, user: await app.getUser({ or: "throw" }) };
}

/** What a rejected promise rejected with. */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

/** What the purchase page does with a checkout URL in test mode: take the product with the code, without paying. */
async function buyInTestMode(url: string, priceId: string, quantity = 1) {
  const fullCode = new URL(url).pathname.split("/").pop()!;
  const res = await fetch(`${baseUrl}/api/v1/internal/payments/test-mode-purchase-session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ full_code: fullCode, price_id: priceId, quantity }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("a user's products", () => {
  it("a user buys through a checkout URL; their products and items list it", async () => {
    const { user } = await signedUp();
    expect([...(await user.listProducts())]).toEqual([]);
    const url = await user.createCheckoutUrl({ productId: "pro", returnUrl: "http://localhost:3000/done" });
    const parsed = new URL(url);
    expect(parsed.pathname).toMatch(/^\/purchase\/[0-9a-f-]{36}_[0-9a-z]{45}$/);
    expect(parsed.searchParams.get("return_url")).toBe("http://localhost:3000/done");
    await buyInTestMode(url, "monthly");

    // The purchase happened outside the user's app (the purchase page): a read of another app sees it.
    const products = await serverApp.listProducts({ userId: user.id });
    expect(products.nextCursor).toBeNull();
    expect(products).toHaveLength(1);
    expect(products[0]).toEqual({
      id: "pro",
      quantity: 1,
      displayName: "Pro",
      customerType: "user",
      isServerOnly: false,
      stackable: false,
      type: "subscription",
      subscription: {
        subscriptionId: expect.any(String),
        currentPeriodEnd: expect.any(Date),
        cancelAtPeriodEnd: false,
        isCancelable: true,
      },
      switchOptions: [],
    });
    expect((await serverApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(100);
  });

  it("a server grants a configured product and an inline one; the user's cached reads follow", async () => {
    const { user } = await signedUp();
    const serverUser = (await serverApp.getUser(user.id))!;
    const entry = serverUser._productsEntry();
    expect([...(await entry.get())]).toEqual([]);
    const next = nextSnapshot(entry, (s) => s.status === "ok" && s.value.length === 1);
    await serverUser.grantProduct({ productId: "lifetime" });
    expect((await next.seen).map((p) => [p.id, p.type, p.subscription])).toEqual([["lifetime", "one_time", null]]);
    next.unsubscribe();

    await serverApp.grantProduct({
      userId: user.id,
      product: { display_name: "Gift", customer_type: "user", prices: { once: { USD: "0" } } },
    });
    const listed = await serverUser.listProducts();
    expect(listed.map((p) => [p.id, p.displayName, p.quantity])).toEqual([
      ["lifetime", "Lifetime", 1],
      [null, "Gift", 1],
    ]);
    // A client does not see server-only products.
    await serverUser.grantProduct({ productId: "hidden" });
    expect((await serverUser.listProducts()).map((p) => p.id)).toContain("hidden");
    expect((await user.listProducts()).map((p) => p.id)).not.toContain("hidden");
  });

  it("a server cancels a user's subscription by id: owned until its period ends; a second cancel is refused", async () => {
    const { user } = await signedUp();
    await serverApp.grantProduct({ userId: user.id, productId: "pro" });
    await serverApp.cancelSubscription({ userId: user.id, productId: "pro" });
    const [pro] = await serverApp.listProducts({ userId: user.id });
    // A cancelled subscription is listed, until its period ends, as a one-time purchase.
    expect([pro!.id, pro!.type]).toEqual(["pro", "one_time"]);
    expect(await refusal(serverApp.cancelSubscription({ userId: user.id, productId: "pro" }))).toMatchObject({
      message: expect.stringContaining("This subscription cannot be canceled."),
    });
    await expect(serverApp.cancelSubscription({ userId: user.id, teamId: "t", productId: "pro" })).rejects.toBeInstanceOf(TypeError);
  });

  it("pages: limit and the next cursor", async () => {
    const { user } = await signedUp();
    for (const productId of ["lifetime", "hidden"]) await serverApp.grantProduct({ userId: user.id, productId });
    const first = await serverApp.listProducts({ userId: user.id, limit: 1 });
    expect(first).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await serverApp.listProducts({ userId: user.id, limit: 1, cursor: first.nextCursor! });
    expect(second).toHaveLength(1);
    expect(second[0]!.id).not.toBe(first[0]!.id);
    expect(second.nextCursor).toBeNull();
  });

  it("refusals: unknown product, wrong customer type, a second non-stackable grant, another user's checkout, bad options", async () => {
    const { user } = await signedUp();
    expect(await refusal(user.createCheckoutUrl({ productId: "nope" }))).toBeInstanceOf(KnownErrors.ProductDoesNotExist);
    expect(await refusal(user.createCheckoutUrl({ productId: "team-plan" }))).toBeInstanceOf(KnownErrors.ProductCustomerTypeDoesNotMatch);
    await serverApp.grantProduct({ userId: user.id, productId: "lifetime" });
    expect(await refusal(serverApp.grantProduct({ userId: user.id, productId: "lifetime" }))).toBeInstanceOf(
      KnownErrors.ProductAlreadyGranted,
    );
    expect(await refusal(user.createCheckoutUrl({ productId: "lifetime" }))).toBeInstanceOf(KnownErrors.ProductAlreadyGranted);
    expect(await refusal(serverApp.grantProduct({ userId: "00000000-0000-4000-8000-000000000000", productId: "pro" }))).toBeInstanceOf(
      KnownErrors.UserNotFound,
    );
    expect(await refusal(user.createCheckoutUrl({ productId: "pro", returnUrl: "https://evil.example.com/" }))).toBeInstanceOf(
      KnownErrors.RedirectUrlNotWhitelisted,
    );

    const { app: otherApp } = await signedUp();
    const foreign = await refusal(otherApp.listProducts({ userId: user.id }));
    expect(foreign).toBeInstanceOf(HttpError);
    expect((foreign as HttpError).status).toBe(403);

    const both = { userId: user.id, productId: "pro", product: { display_name: "x" } } as unknown as Parameters<
      StackServerApp["grantProduct"]
    >[0];
    expect(await refusal(serverApp.grantProduct(both))).toBeInstanceOf(TypeError);
    const twoCustomers = { userId: user.id, teamId: "t", productId: "pro" } as unknown as Parameters<StackServerApp["grantProduct"]>[0];
    expect(await refusal(serverApp.grantProduct(twoCustomers))).toBeInstanceOf(TypeError);
    // None of these granted anything.
    expect((await serverApp.listProducts({ userId: user.id })).map((p) => p.id)).toEqual(["lifetime"]);
  });
});

describe("cancelling a subscription", () => {
  it("the user cancels: the product stays until the period ends, then is gone; a one-time purchase cannot be cancelled", async () => {
    const { app, user } = await signedUp();
    await serverApp.grantProduct({ userId: user.id, productId: "pro" });
    await serverApp.grantProduct({ userId: user.id, productId: "lifetime" });
    const entry = app._productsEntry({ userId: user.id });
    expect((await entry.get()).map((p) => p.id)).toEqual(["pro", "lifetime"]);

    const oneTime = await refusal(app.cancelSubscription({ productId: "lifetime" }));
    expect(oneTime).toBeInstanceOf(HttpError);
    expect((oneTime as HttpError).status).toBe(400);
    expect((oneTime as HttpError).body).toContain("This product is a one time purchase and cannot be canceled.");

    await app.cancelSubscription({ productId: "pro" });
    // Owned until the period ends, listed meanwhile as a one-time product (the cached list was read again).
    const afterCancel = await entry.get();
    expect(afterCancel.map((p) => [p.id, p.type, p.subscription])).toEqual([
      ["pro", "one_time", null],
      ["lifetime", "one_time", null],
    ]);
    expect(await refusal(app.cancelSubscription({ productId: "nope" }))).toBeInstanceOf(KnownErrors.ProductDoesNotExist);

    // Another project's clock: this test's project moves on its own.
    const own = await createSdkProject(baseUrl);
    await own.project.updateConfig({ "payments.products.pro": { displayName: "Pro", prices: { monthly } } });
    const ownServer = new StackServerApp({ baseUrl, projectId: own.id, secretServerKey: own.secretServerKey });
    const ownAdmin = new StackAdminApp({ baseUrl, projectId: own.id, superSecretAdminKey: own.superSecretAdminKey });
    const { app: ownApp, user: ownUser } = await signedUp(clientAppOf(baseUrl, own));
    await ownServer.grantProduct({ userId: ownUser.id, productId: "pro" });
    await ownApp.cancelSubscription({ productId: "pro" });
    expect((await ownAdmin.listProducts({ userId: ownUser.id })).map((p) => p.id)).toEqual(["pro"]);
    await ownAdmin.advancePaymentsTestClock(32 * DAY);
    // The admin app's cached list is read again after the clock moved.
    expect([...(await ownAdmin.listProducts({ userId: ownUser.id }))]).toEqual([]);
    expect([...(await ownServer.listProducts({ userId: ownUser.id }))]).toEqual([]);
  });
});

describe("a team's products", () => {
  it("the team's admin buys from a client; a server grants; a plain member is refused", async () => {
    const { user } = await signedUp();
    const team = await user.createTeam({ displayName: "Crew" });
    const url = await team.createCheckoutUrl({ productId: "team-plan" });
    await buyInTestMode(url, "monthly");
    const serverTeam = (await serverApp.getTeam(team.id))!;
    expect((await serverTeam.listProducts()).map((p) => p.id)).toEqual(["team-plan"]);
    expect((await serverTeam.getItem("seats")).quantity).toBe(3);
    await serverTeam.grantProduct({ product: { display_name: "Extra", customer_type: "team", prices: {} } });
    // An inline product is server-only unless it says otherwise: the client sees only the plan.
    expect((await serverTeam.listProducts()).map((p) => p.displayName)).toEqual(["Team plan", "Extra"]);
    expect((await team.listProducts()).map((p) => p.displayName)).toEqual(["Team plan"]);
    expect(await refusal(serverTeam.grantProduct({ productId: "pro" }))).toBeInstanceOf(KnownErrors.ProductCustomerTypeDoesNotMatch);

    const { app: memberApp, user: member } = await signedUp();
    await serverTeam.addUser(member.id);
    expect(await refusal(memberApp.listProducts({ teamId: team.id }))).toBeInstanceOf(KnownErrors.TeamPermissionRequired);
  });
});

describe("custom customers", () => {
  it("a server grants and lists a custom customer's products and makes its checkout URL", async () => {
    const customer = `org-${Date.now()}`;
    await serverApp.grantProduct({
      customCustomerId: customer,
      product: { display_name: "Org pack", customer_type: "custom", prices: { once: { USD: "1" } } },
    });
    const listed = await serverApp.listProducts({ customCustomerId: customer });
    expect(listed.map((p) => [p.id, p.displayName, p.customerType])).toEqual([[null, "Org pack", "custom"]]);
    const url = await serverApp.createCheckoutUrl({
      customCustomerId: customer,
      product: { display_name: "Org plan", customer_type: "custom", prices: { monthly } },
    });
    expect(new URL(url).pathname).toMatch(/^\/purchase\//);
  });
});

describe("the payments test clock", () => {
  it("the admin reads and advances it; repeated grants arrive and the app's cached item is read again", async () => {
    const own = await createSdkProject(baseUrl);
    await own.project.updateConfig({
      "payments.items.credits": { customerType: "user" },
      "payments.products.pro": {
        prices: { monthly },
        includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "never" } },
      },
    });
    const ownAdmin = new StackAdminApp({ baseUrl, projectId: own.id, superSecretAdminKey: own.superSecretAdminKey });
    const clock = await ownAdmin.getPaymentsTestClock();
    expect(clock).toEqual({ offsetMillis: 0, now: expect.any(Date), testMode: true });
    const { user } = await signedUp(clientAppOf(baseUrl, own));
    await ownAdmin.grantProduct({ userId: user.id, productId: "pro" });
    await ownAdmin.grantProduct({ userId: user.id, product: { display_name: "Top-up", customer_type: "user", prices: {} } });
    const entry = ownAdmin._itemEntry({ itemId: "credits", userId: user.id });
    expect((await entry.get()).quantity).toBe(100);
    const next = nextSnapshot(entry, (s) => s.status === "ok" && s.value.quantity === 200);
    const moved = await ownAdmin.advancePaymentsTestClock(31 * DAY);
    expect(moved.offsetMillis).toBe(31 * DAY);
    expect(moved.now.getTime() - Date.now()).toBeGreaterThan(30 * DAY);
    // The month's repeated grant (expiring never) adds to the first; the hook's entry sees it unasked.
    expect((await next.seen).quantity).toBe(200);
    next.unsubscribe();
    expect((await ownAdmin.getPaymentsTestClock()).offsetMillis).toBe(31 * DAY);
  });

  it("refusals: a non-positive move, outside test mode", async () => {
    expect(await refusal(adminApp.advancePaymentsTestClock(0))).toBeInstanceOf(KnownErrors.SchemaError);
    const off = await createSdkProject(baseUrl);
    await off.project.updateConfig({ "payments.testMode": false });
    const offAdmin = new StackAdminApp({ baseUrl, projectId: off.id, superSecretAdminKey: off.superSecretAdminKey });
    const refused = await refusal(offAdmin.advancePaymentsTestClock(DAY));
    expect((refused as HttpError).status).toBe(403);
    expect((refused as HttpError).body).toBe("Test mode is not enabled for this project");
    expect((await offAdmin.getPaymentsTestClock()).offsetMillis).toBe(0);
  });
});
