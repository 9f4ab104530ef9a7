/**
 * Payment items through the SDK against a real server: reading a user's,
 * a team's and a custom customer's quantity (`getItem` on the app, the user
 * and the team), the server item's increase, decrease (below zero) and
 * tryDecrease (false instead of going below), the admin app's
 * createItemQuantityChange, what a client is refused, and the cached item a
 * hook reads following the SDK's changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, StackAdminApp, StackServerApp, type StackClientApp } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { countingFetch, nextSnapshot, PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let serverApp: StackServerApp;
let adminApp: StackAdminApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl, { clientTeamCreationEnabled: true });
  await project.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.items.plain": { customerType: "user" },
    "payments.items.seats": { displayName: "Seats", customerType: "team" },
    "payments.items.tokens": { displayName: "Tokens", customerType: "custom" },
  });
  serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  adminApp = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });
});
afterAll(() => server?.close());

async function signedUp(app: StackClientApp = clientAppOf(baseUrl, project)) {
  const result = await app.signUpWithCredential({ email: uniqueEmail("items"), password: PASSWORD, noRedirect: true });
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

describe("reading items", () => {
  it("a user reads their own item: display name, quantity and its non-negative part; the id stands in for a missing name", async () => {
    const { app, user } = await signedUp();
    expect(await user.getItem("credits")).toEqual({ displayName: "Credits", quantity: 0, nonNegativeQuantity: 0 });
    expect(await user.getItem("plain")).toEqual({ displayName: "plain", quantity: 0, nonNegativeQuantity: 0 });
    // The app-level read of the same item is the same cached read.
    expect(await app.getItem({ itemId: "credits", userId: user.id })).toEqual(await user.getItem("credits"));
    // A client's item has no quantity methods: changing it needs server access.
    expect(Object.keys(await user.getItem("credits")).sort()).toEqual(["displayName", "nonNegativeQuantity", "quantity"]);
  });

  it("a client may not read another user's item, nor a custom customer's", async () => {
    const { user: other } = await signedUp();
    const { app } = await signedUp();
    const error = await refusal(app.getItem({ itemId: "credits", userId: other.id }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(403);
    expect((error as HttpError).body).toContain("Clients can only access their own user or team items.");
    const custom = await refusal(app.getItem({ itemId: "tokens", customCustomerId: "org-1" }));
    expect((custom as HttpError).status).toBe(403);
  });

  it("an unknown item, an item of another customer type, and an unknown user are the catalogue's errors", async () => {
    const { user } = await signedUp();
    const unknown = await refusal(user.getItem("nope"));
    expect(unknown).toBeInstanceOf(KnownErrors.ItemNotFound);
    const wrongType = await refusal(user.getItem("seats"));
    expect(wrongType).toBeInstanceOf(KnownErrors.ItemCustomerTypeDoesNotMatch);
    const noUser = await refusal(serverApp.getItem({ itemId: "credits", userId: "00000000-0000-4000-8000-000000000000" }));
    expect(noUser).toBeInstanceOf(KnownErrors.UserNotFound);
  });

  it("names exactly one customer: none or two are refused before any request", async () => {
    const { fetch, calls } = countingFetch();
    const app = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey, fetch });
    const two = { itemId: "credits", userId: "a", teamId: "b" } as unknown as Parameters<StackServerApp["getItem"]>[0];
    expect(() => app._itemEntry(two)).toThrow(TypeError);
    const none = { itemId: "credits" } as unknown as Parameters<StackServerApp["getItem"]>[0];
    await expect(refusal(Promise.resolve().then(() => app.getItem(none)))).resolves.toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });
});

describe("a server's items", () => {
  it("increaseQuantity, then decreaseQuantity below zero: debt shows as a negative quantity, nonNegativeQuantity stays 0", async () => {
    const { user } = await signedUp();
    const item = await serverApp.getItem({ itemId: "credits", userId: user.id });
    expect(item.quantity).toBe(0);
    await item.increaseQuantity(2);
    const after = await serverApp.getItem({ itemId: "credits", userId: user.id });
    expect(after).toMatchObject({ quantity: 2, nonNegativeQuantity: 2 });
    await after.decreaseQuantity(5);
    expect(await serverApp.getItem({ itemId: "credits", userId: user.id })).toMatchObject({ quantity: -3, nonNegativeQuantity: 0 });
    // The user reads the same, on their own session.
    expect(await user.getItem("credits")).toEqual({ displayName: "Credits", quantity: -3, nonNegativeQuantity: 0 });
    // A later grant pays the debt first.
    await after.increaseQuantity(4);
    expect((await serverApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(1);
  });

  it("tryDecreaseQuantity answers false and changes nothing when the quantity does not cover it, true when it does", async () => {
    const { user } = await signedUp();
    const serverUser = await serverApp.getUser(user.id);
    const item = await serverUser!.getItem("credits");
    await item.increaseQuantity(3);
    expect(await item.tryDecreaseQuantity(4)).toBe(false);
    expect((await serverUser!.getItem("credits")).quantity).toBe(3);
    expect(await item.tryDecreaseQuantity(3)).toBe(true);
    expect((await serverUser!.getItem("credits")).quantity).toBe(0);
    expect(await item.tryDecreaseQuantity(1)).toBe(false);
    expect((await serverUser!.getItem("credits")).quantity).toBe(0);
  });

  it("of concurrent tryDecreaseQuantity calls, exactly those the quantity covers succeed", async () => {
    const { user } = await signedUp();
    const item = await serverApp.getItem({ itemId: "credits", userId: user.id });
    await item.increaseQuantity(3);
    const results = await Promise.all(Array.from({ length: 6 }, () => item.tryDecreaseQuantity(1)));
    expect(results.filter(Boolean)).toHaveLength(3);
    expect((await serverApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
  });

  it("amounts are whole numbers of at least 0: anything else is refused before any request", async () => {
    const { user } = await signedUp();
    const { fetch, calls } = countingFetch();
    const app = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey, fetch });
    const item = await app.getItem({ itemId: "credits", userId: user.id });
    calls.length = 0;
    await expect(item.increaseQuantity(-1)).rejects.toThrow(RangeError);
    await expect(item.decreaseQuantity(1.5)).rejects.toThrow(RangeError);
    await expect(item.tryDecreaseQuantity(Number.NaN)).rejects.toThrow(RangeError);
    expect(calls).toEqual([]);
    expect((await serverApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
  });

  it("the cached item a hook reads follows the server item's changes", async () => {
    const { user } = await signedUp();
    const entry = serverApp._itemEntry({ itemId: "credits", userId: user.id });
    const item = await serverApp.getItem({ itemId: "credits", userId: user.id });
    expect(await entry.get()).toBe(item);
    const increased = nextSnapshot(entry, (s) => s.status === "ok" && s.value.quantity === 7);
    await item.increaseQuantity(7);
    expect((await increased.seen).nonNegativeQuantity).toBe(7);
    increased.unsubscribe();
    // The user object's read of the same customer and item is the same entry: it follows too.
    const serverUser = await serverApp.getUser(user.id);
    const viaUser = serverUser!._itemEntry("credits");
    const decreased = nextSnapshot(viaUser, (s) => s.status === "ok" && s.value.quantity === -1);
    await item.decreaseQuantity(8);
    expect((await decreased.seen).nonNegativeQuantity).toBe(0);
    decreased.unsubscribe();
  });
});

describe("team items", () => {
  it("the team's creator (team_admin) reads its items from a client; a server changes them; a plain member is refused", async () => {
    const { user } = await signedUp();
    const team = await user.createTeam({ displayName: "Crew" });
    expect(await team.getItem("seats")).toEqual({ displayName: "Seats", quantity: 0, nonNegativeQuantity: 0 });

    const serverTeam = await serverApp.getTeam(team.id);
    const seats = await serverTeam!.getItem("seats");
    await seats.increaseQuantity(5);
    expect((await serverApp.getItem({ itemId: "seats", teamId: team.id })).quantity).toBe(5);

    // The client's cached read is read again on the next get past the throttle; a fresh client app reads 5 at once.
    const fresh = clientAppOf(baseUrl, project);
    await fresh.signInWithCredential({ email: user.primaryEmail!, password: PASSWORD, noRedirect: true });
    expect((await fresh.getItem({ itemId: "seats", teamId: team.id })).quantity).toBe(5);

    const { app: memberApp, user: member } = await signedUp();
    await serverTeam!.addUser(member.id);
    const notAdmin = await refusal(memberApp.getItem({ itemId: "seats", teamId: team.id }));
    expect(notAdmin).toBeInstanceOf(KnownErrors.TeamPermissionRequired);
  });

  it("a client outside the team is refused with TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const { user } = await signedUp();
    const team = await user.createTeam({ displayName: "Closed" });
    const { app: outsider } = await signedUp();
    const error = await refusal(outsider.getItem({ itemId: "seats", teamId: team.id }));
    expect(error).toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
  });
});

describe("custom customers", () => {
  it("a server reads and changes any id of the app's own, never checked", async () => {
    const customer = `org-${Date.now().toString(36)}`;
    const item = await serverApp.getItem({ itemId: "tokens", customCustomerId: customer });
    expect(item).toMatchObject({ displayName: "Tokens", quantity: 0, nonNegativeQuantity: 0 });
    await item.increaseQuantity(10);
    expect(await item.tryDecreaseQuantity(4)).toBe(true);
    expect((await serverApp.getItem({ itemId: "tokens", customCustomerId: customer })).quantity).toBe(6);
    // Another custom id is another customer.
    expect((await serverApp.getItem({ itemId: "tokens", customCustomerId: `${customer}-2` })).quantity).toBe(0);
  });
});

describe("the admin app's createItemQuantityChange", () => {
  it("grants and removes for a user, a team and a custom customer; a removal below zero is refused and changes nothing", async () => {
    const { user } = await signedUp();
    const team = await user.createTeam({ displayName: "Admin's" });
    await adminApp.createItemQuantityChange({ userId: user.id, itemId: "credits", quantity: 3, description: "welcome bonus" });
    await adminApp.createItemQuantityChange({ teamId: team.id, itemId: "seats", quantity: 2 });
    await adminApp.createItemQuantityChange({ customCustomerId: "admin-custom", itemId: "tokens", quantity: 1 });
    expect((await adminApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(3);
    expect((await team.getItem("seats")).quantity).toBe(2);
    expect((await adminApp.getItem({ itemId: "tokens", customCustomerId: "admin-custom" })).quantity).toBe(1);

    const error = await refusal(adminApp.createItemQuantityChange({ userId: user.id, itemId: "credits", quantity: -4 }));
    expect(error).toBeInstanceOf(KnownErrors.ItemQuantityInsufficientAmount);
    await adminApp.createItemQuantityChange({ userId: user.id, itemId: "credits", quantity: -3 });
    expect((await adminApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
  });

  it("a grant that has already expired counts for nothing; one expiring later counts", async () => {
    const { user } = await signedUp();
    await adminApp.createItemQuantityChange({ userId: user.id, itemId: "credits", quantity: 5, expiresAt: new Date(Date.now() - 60_000) });
    expect((await adminApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await adminApp.createItemQuantityChange({ userId: user.id, itemId: "credits", quantity: 2, expiresAt: later });
    expect((await adminApp.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(2);
  });

  it("an unknown item is ITEM_NOT_FOUND", async () => {
    const { user } = await signedUp();
    const error = await refusal(adminApp.createItemQuantityChange({ userId: user.id, itemId: "nope", quantity: 1 }));
    expect(error).toBeInstanceOf(KnownErrors.ItemNotFound);
  });
});
