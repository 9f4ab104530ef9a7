/**
 * Products priced "include-by-default" (a free plan): every customer of the
 * product's type owns one from their start without buying it, it is listed
 * first among their products, its included items count (repeats on the
 * payments test clock), and a product of its product line replaces it while
 * owned, the free plan coming back when that one ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { createTeam } from "./permission-fixtures.ts";

let server: TestServer;
let project: Project;

const DAY = 24 * 60 * 60 * 1000;

const PAYMENTS = {
  "payments.items.credits": { displayName: "Credits" },
  "payments.items.seats": { customerType: "team" },
  "payments.productLines.plans": { customerType: "user" },
  "payments.products.free": {
    displayName: "Free",
    productLineId: "plans",
    prices: "include-by-default",
    includedItems: { credits: { quantity: 10, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.products.pro": {
    displayName: "Pro",
    productLineId: "plans",
    prices: { monthly: { USD: "10", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.products.team-free": { customerType: "team", prices: "include-by-default", includedItems: { seats: { quantity: 3 } } },
  "payments.products.hidden-free": { serverOnly: true, prices: "include-by-default" },
};

const listIds = async (as: Project["server"], type: string, id: string) => {
  const res = await server.request(`/payments/products/${type}/${id}`, { as });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { id: string }[]).map((item) => item.id);
};
const quantity = async (type: string, id: string, item: string) => {
  const res = await server.request(`/payments/items/${type}/${id}/${item}`, { as: project.server });
  expect(res.status, res.text).toBe(200);
  return res.body.quantity as number;
};
const advance = (ms: number) =>
  server.request("/internal/payments/test-clock/advance", { method: "POST", as: project.admin, body: { ms } });

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  const res = await server.request("/internal/config/override/environment", {
    method: "PATCH",
    as: project.admin,
    body: { config_override_string: JSON.stringify(PAYMENTS) },
  });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => server?.close());

describe("a default product", () => {
  let user: EndUser;
  beforeAll(async () => {
    user = await signUpUser(server, project);
  });

  it("is owned by a new customer, listed first, with its type's default products only (server-only ones hidden from clients)", async () => {
    expect(await listIds(project.server, "user", user.userId)).toEqual(["free", "hidden-free"]);
    const res = await server.request(`/payments/products/user/${user.userId}`, { as: user.as });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ id: "free", quantity: 1, type: "one_time", subscription: null });
    expect(res.body.items[0].product).toMatchObject({ display_name: "Free", customer_type: "user", prices: {} });
  });

  it("grants what it includes, again every repeat (on the payments test clock)", async () => {
    expect(await quantity("user", user.userId, "credits")).toBe(10);
    expect((await advance(31 * DAY)).status).toBe(200);
    // The first month's ten expired when the second month's arrived.
    expect(await quantity("user", user.userId, "credits")).toBe(10);
  });

  it("gives way to a product of its line while that one is owned, and comes back when it ends", async () => {
    const other = await signUpUser(server, project);
    const granted = await server.request(`/payments/products/user/${other.userId}`, {
      method: "POST",
      as: project.server,
      body: { product_id: "pro" },
    });
    expect(granted.status, granted.text).toBe(200);
    expect(await listIds(project.server, "user", other.userId)).toEqual(["hidden-free", "pro"]);
    // Free's first ten last until their repeat; Pro's hundred arrive with it.
    expect(await quantity("user", other.userId, "credits")).toBe(110);
    const cancelled = await server.request(`/payments/products/user/${other.userId}/pro`, { method: "DELETE", as: project.server });
    expect(cancelled.status, cancelled.text).toBe(200);
    // A cancelled subscription of ours lasts to the end of its period, then the free plan is back.
    expect((await advance(31 * DAY)).status).toBe(200);
    expect(await listIds(project.server, "user", other.userId)).toEqual(["free", "hidden-free"]);
    expect(await quantity("user", other.userId, "credits")).toBe(10);
  });

  it("is owned by teams and custom customers of its type too", async () => {
    const teamId = await createTeam(server, project.id, user.userId);
    expect(await listIds(project.server, "team", teamId)).toEqual(["team-free"]);
    expect(await quantity("team", teamId, "seats")).toBe(3);
    expect(await listIds(project.server, "custom", "org-1")).toEqual([]);
  });
});
