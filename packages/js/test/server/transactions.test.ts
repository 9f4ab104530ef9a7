/**
 * The admin app's payment transactions against a real server:
 * `listTransactions` (entries as the API sends them, cursor pages, filters)
 * and `refundTransaction` (revoking an API-granted purchase, and the
 * catalogue's errors for what cannot be refunded).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, StackAdminApp, StackServerApp } from "../../src/index.ts";
import { createSdkProject, type SdkProject } from "./fixtures.ts";
import { startServer, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let serverApp: StackServerApp;
let adminApp: StackAdminApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  await project.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.items.tokens": { customerType: "custom" },
    "payments.products.packs": {
      displayName: "Packs",
      customerType: "user",
      stackable: true,
      prices: { each: { USD: "5" } },
      includedItems: { credits: { quantity: 10, expires: "when-purchase-expires" } },
    },
  });
  serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  adminApp = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });
});
afterAll(() => server?.close());

/** Grants through the API (the SDK's own grant method is another change's). */
async function grantPacks(userId: string, quantity: number) {
  const res = await fetch(`${baseUrl}/api/v1/payments/products/user/${userId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "server",
      "x-stack-project-id": project.id,
      "x-stack-secret-server-key": project.secretServerKey,
    },
    body: JSON.stringify({ product_id: "packs", quantity }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

describe("listTransactions", () => {
  it("lists purchases and item changes newest first, a page at a time, filtered by type and customer type", async () => {
    const user = await serverApp.createUser({ primaryEmail: `tx-${crypto.randomUUID()}@example.com` });
    await adminApp.createItemQuantityChange({ customCustomerId: "acme", itemId: "tokens", quantity: 3 });
    await grantPacks(user.id, 2);
    const all = await adminApp.listTransactions();
    expect(all.nextCursor).toBeNull();
    expect(all.transactions.map((t) => t.type)).toEqual(["purchase", "manual-item-quantity-change"]);
    expect(all.transactions[0]!.entries[0]).toMatchObject({
      type: "product_grant",
      customer_type: "user",
      customer_id: user.id,
      product_id: "packs",
      quantity: 2,
      one_time_purchase_id: all.transactions[0]!.id,
    });
    expect(all.transactions[1]!.entries).toEqual([
      {
        type: "item_quantity_change",
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: "custom",
        customer_id: "acme",
        item_id: "tokens",
        quantity: 3,
      },
    ]);

    const first = await adminApp.listTransactions({ limit: 1 });
    expect(first.transactions.map((t) => t.id)).toEqual([all.transactions[0]!.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await adminApp.listTransactions({ limit: 1, cursor: first.nextCursor! });
    expect(second.transactions.map((t) => t.id)).toEqual([all.transactions[1]!.id]);
    expect(second.nextCursor).toBeNull();

    expect((await adminApp.listTransactions({ type: "manual-item-quantity-change" })).transactions).toHaveLength(1);
    expect((await adminApp.listTransactions({ customerType: "user" })).transactions.map((t) => t.type)).toEqual(["purchase"]);
    expect((await adminApp.listTransactions({ customerType: "team" })).transactions).toEqual([]);
  });

  it("a cursor that is not one is refused (400, plain)", async () => {
    const error = await refusal(adminApp.listTransactions({ cursor: "nope" }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toBe("Invalid cursor");
  });
});

describe("refundTransaction", () => {
  it("refunds an API-granted purchase: the product and what it includes are revoked, and the refund is listed", async () => {
    const user = await serverApp.createUser({ primaryEmail: `refund-${crypto.randomUUID()}@example.com` });
    await grantPacks(user.id, 3);
    expect((await user.getItem("credits")).quantity).toBe(30);
    const purchase = (await adminApp.listTransactions({ type: "purchase", customerType: "user" })).transactions[0]!;
    await adminApp.refundTransaction({
      type: "one-time-purchase",
      id: purchase.id,
      refundEntries: [{ entryIndex: 0, quantity: 3, amountUsd: "0" }],
    });
    // Read by the admin app: the server app's cache still holds what it read before the refund.
    expect((await adminApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
    const [refund] = (await adminApp.listTransactions({ type: "refund" })).transactions;
    expect(refund!.entries).toEqual([
      { type: "product_revocation", adjusted_transaction_id: purchase.id, adjusted_entry_index: 0, quantity: 3 },
    ]);
    const again = await refusal(
      adminApp.refundTransaction({
        type: "one-time-purchase",
        id: purchase.id,
        refundEntries: [{ entryIndex: 0, quantity: 1, amountUsd: "0" }],
      }),
    );
    expect(again).toBeInstanceOf(KnownErrors.OneTimePurchaseAlreadyRefunded);
  });

  it("an unknown subscription or purchase is the catalogue's not-found error; bad entries a schema error", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await refusal(adminApp.refundTransaction({ type: "subscription", id: missing, refundEntries: [] }))).toBeInstanceOf(
      KnownErrors.SubscriptionInvoiceNotFound,
    );
    expect(await refusal(adminApp.refundTransaction({ type: "one-time-purchase", id: missing, refundEntries: [] }))).toBeInstanceOf(
      KnownErrors.OneTimePurchaseNotFound,
    );
    const user = await serverApp.createUser({ primaryEmail: `bad-${crypto.randomUUID()}@example.com` });
    await grantPacks(user.id, 1);
    const purchase = (await adminApp.listTransactions({ type: "purchase", customerType: "user" })).transactions[0]!;
    const bad = await refusal(
      adminApp.refundTransaction({
        type: "one-time-purchase",
        id: purchase.id,
        refundEntries: [{ entryIndex: 0, quantity: 2, amountUsd: "0" }],
      }),
    );
    expect(bad).toBeInstanceOf(KnownErrors.SchemaError);
    expect((bad as Error).message).toContain("Refund quantity cannot exceed purchased quantity.");
    expect((await serverApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(10);
  });
});
