/**
 * Payment items (GET /payments/items/{type}/{customer}/{item} and
 * …/update-quantity): who may read whose items, the catalogue's errors in
 * WIRE-next §5.3's order, the ledger through the API (expiry on the
 * injected clock, debt), idempotency keys, and concurrent removals: exactly
 * those that fit succeed.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentItemChanges } from "../src/capabilities/payments/schema.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaErrorIncluding,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { addMember, createTeam } from "./permission-fixtures.ts";

let server: TestServer;
let project: Project;
let other: Project;
let alice: EndUser;
let bob: EndUser;
let teamId: string;

/** Ledger times in hours: the fixtures' project keys expire a day after they are made. */
const HOUR = 3_600_000;

async function setItems(p: Project, items: Record<string, { displayName?: string; customerType: string }>) {
  const override = Object.fromEntries(Object.entries(items).map(([id, item]) => [`payments.items.${id}`, item]));
  const res = await server.request("/internal/config/override/environment", {
    method: "PATCH",
    as: p.admin,
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
}

const itemPath = (type: string, customer: string, item: string) =>
  `/payments/items/${type}/${encodeURIComponent(customer)}/${encodeURIComponent(item)}`;
const getItem = (as: Auth, type: string, customer: string, item: string) => server.request(itemPath(type, customer, item), { as });
const change = (as: Auth, type: string, customer: string, item: string, body: unknown, allowNegative: boolean | null = false) =>
  server.request(`${itemPath(type, customer, item)}/update-quantity`, {
    method: "POST",
    as,
    body,
    ...(allowNegative === null ? {} : { query: { allow_negative: String(allowNegative) } }),
  });
const quantity = async (type: string, customer: string, item: string, p = project) => {
  const res = await getItem(p.server, type, customer, item);
  expect(res.status, res.text).toBe(200);
  return res.body.quantity as number;
};

beforeAll(async () => {
  server = await createTestServer();
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
  await setItems(project, {
    credits: { displayName: "Credits", customerType: "user" },
    seats: { displayName: "Seats", customerType: "team" },
    tokens: { customerType: "custom" },
    plain: { customerType: "user" },
  });
  await setItems(other, { credits: { displayName: "Credits", customerType: "user" } });
  [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
  teamId = await createTeam(server, project.id, alice.userId);
  await addMember(server, project.id, teamId, bob.userId);
});
afterAll(() => server?.close());

describe("reading an item", () => {
  it("answers id, display name (the id when the config has none) and quantity, zero at first", async () => {
    const res = await getItem(alice.as, "user", alice.userId, "credits");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: "credits", display_name: "Credits", quantity: 0 });
    expect((await getItem(project.server, "user", alice.userId, "plain")).body).toEqual({
      id: "plain",
      display_name: "plain",
      quantity: 0,
    });
  });

  it("refuses an unknown item, then an item of another customer type, with the reference's messages", async () => {
    const missing = await getItem(alice.as, "user", alice.userId, "nope");
    expectKnownError(missing, "ITEM_NOT_FOUND", 404);
    expect(missing.body).toEqual({ code: "ITEM_NOT_FOUND", details: { item_id: "nope" }, error: 'Item with ID "nope" not found.' });
    const wrongType = await getItem(alice.as, "user", alice.userId, "seats");
    expectKnownError(wrongType, "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expect(wrongType.body.details).toEqual({
      actual_customer_type: "user",
      customer_id: alice.userId,
      item_customer_type: "team",
      item_id: "seats",
    });
    expect(wrongType.body.error).toBe(
      `The user with ID "${alice.userId}" is not a valid customer for the item with ID "seats". The item is configured to only be available for team customers, but the customer is a user.`,
    );
  });

  it("refuses a user or team that does not exist (a non-UUID id included); never checks a custom one", async () => {
    expectKnownError(await getItem(project.server, "user", UNKNOWN_UUID, "credits"), "USER_NOT_FOUND", 404);
    expectKnownError(await getItem(project.server, "user", "user-123", "credits"), "USER_NOT_FOUND", 404);
    expectKnownError(await getItem(project.server, "team", UNKNOWN_UUID, "seats"), "TEAM_NOT_FOUND", 404);
    expectKnownError(await getItem(project.server, "team", "team-1", "seats"), "TEAM_NOT_FOUND", 404);
    // Another project's user is not this project's customer.
    const stranger = await signUpUser(server, other);
    expectKnownError(await getItem(project.server, "user", stranger.userId, "credits"), "USER_NOT_FOUND", 404);
    expect((await getItem(project.server, "custom", "org-42", "tokens")).body).toEqual({
      id: "tokens",
      display_name: "tokens",
      quantity: 0,
    });
  });

  it("lets a client read only its own user's items and its teams' where it holds team_admin", async () => {
    expectPlainError(
      await getItem(bob.as, "user", alice.userId, "credits"),
      403,
      /^Clients can only access their own user or team items\.$/,
    );
    expectPlainError(await getItem(alice.as, "custom", "org-42", "tokens"), 403, /own user or team items/);
    expectKnownError(await getItem(project.client, "user", alice.userId, "credits"), "USER_AUTHENTICATION_REQUIRED", 401);
    // The team's creator holds team_admin; a plain member does not; a stranger is no member.
    expect((await getItem(alice.as, "team", teamId, "seats")).status).toBe(200);
    expectKnownError(await getItem(bob.as, "team", teamId, "seats"), "TEAM_PERMISSION_REQUIRED", 401);
    const carol = await signUpUser(server, project);
    expectKnownError(await getItem(carol.as, "team", teamId, "seats"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("checks the customer type in the URL", async () => {
    const res = await getItem(project.server, "org", alice.userId, "credits");
    expectKnownError(res, "SCHEMA_ERROR", 400);
  });
});

describe("changing a quantity", () => {
  it("grants and removes, answering {} each time; the quantity is their sum", async () => {
    const user = await signUpUser(server, project);
    for (const delta of [2, -1, 5]) {
      const res = await change(project.server, "user", user.userId, "credits", { delta, description: "manual" });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({});
    }
    expect(await quantity("user", user.userId, "credits")).toBe(6);
    expect((await getItem(user.as, "user", user.userId, "credits")).body.quantity).toBe(6);
  });

  it("refuses a removal below zero without allow_negative, changing nothing", async () => {
    const user = await signUpUser(server, project);
    await change(project.admin, "user", user.userId, "credits", { delta: 1 });
    const res = await change(project.admin, "user", user.userId, "credits", { delta: -2 });
    expectKnownError(res, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect(res.body).toEqual({
      code: "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      details: { customer_id: user.userId, item_id: "credits", quantity: -2 },
      error: `The item with ID "credits" has an insufficient quantity for the customer with ID "${user.userId}". An attempt was made to charge -2 credits.`,
    });
    expect(await quantity("user", user.userId, "credits")).toBe(1);
  });

  it("goes below zero with allow_negative=true, and the next grant pays the debt first", async () => {
    const user = await signUpUser(server, project);
    expect((await change(project.server, "user", user.userId, "credits", { delta: -3 }, true)).status).toBe(200);
    expect((await getItem(user.as, "user", user.userId, "credits")).body).toEqual({ id: "credits", display_name: "Credits", quantity: -3 });
    await change(project.server, "user", user.userId, "credits", {
      delta: 5,
      expires_at: new Date(server.clock.now() + HOUR).toISOString(),
    });
    expect(await quantity("user", user.userId, "credits")).toBe(2);
    // What was left of the grant expires; the paid-off debt stays paid.
    await server.clock.ahead(2 * HOUR, async () => expect(await quantity("user", user.userId, "credits")).toBe(0));
  });

  it("counts a grant that expired before it was made as nothing, and drops a grant's rest when it expires", async () => {
    const user = await signUpUser(server, project);
    await change(project.server, "user", user.userId, "credits", {
      delta: 4,
      expires_at: new Date(server.clock.now() - 1000).toISOString(),
    });
    expect(await quantity("user", user.userId, "credits")).toBe(0);
    await change(project.server, "user", user.userId, "credits", {
      delta: 10,
      expires_at: new Date(server.clock.now() + 3 * HOUR).toISOString(),
    });
    await change(project.server, "user", user.userId, "credits", { delta: 1 });
    await change(project.server, "user", user.userId, "credits", { delta: -4 });
    // The removal ate the expiring grant first: 6 of it and the 1 that never expires.
    expect(await quantity("user", user.userId, "credits")).toBe(7);
    await server.clock.ahead(3 * HOUR, async () => expect(await quantity("user", user.userId, "credits")).toBe(1));
  });

  it("keeps team and custom customers' items", async () => {
    await change(project.server, "team", teamId, "seats", { delta: 3 });
    expect((await getItem(alice.as, "team", teamId, "seats")).body.quantity).toBe(3);
    await change(project.admin, "custom", "org-7", "tokens", { delta: 3, description: "grant" });
    expect(await quantity("custom", "org-7", "tokens")).toBe(3);
    expect(await quantity("custom", "ORG-7", "tokens")).toBe(0);
  });

  it("keeps each project's items apart", async () => {
    const user = await signUpUser(server, other);
    await change(other.server, "user", user.userId, "credits", { delta: 9 });
    expect(await quantity("user", user.userId, "credits", other)).toBe(9);
    expectKnownError(await change(project.server, "user", user.userId, "credits", { delta: 1 }), "USER_NOT_FOUND", 404);
  });

  it("refuses clients, unknown items, wrong customer types and bad input, changing nothing", async () => {
    const user = await signUpUser(server, project);
    expectKnownError(await change(user.as, "user", user.userId, "credits", { delta: 1 }), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectKnownError(await change(project.server, "user", user.userId, "nope", { delta: 1 }), "ITEM_NOT_FOUND", 404);
    expectKnownError(
      await change(project.server, "user", user.userId, "seats", { delta: 1 }, true),
      "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
    expectKnownError(await change(project.server, "user", UNKNOWN_UUID, "credits", { delta: 1 }), "USER_NOT_FOUND", 404);
    expectSchemaErrorIncluding(
      await change(project.server, "user", user.userId, "credits", { delta: 1 }, null),
      "query.allow_negative must be one of the following values: true, false",
    );
    expectKnownError(await change(project.server, "user", user.userId, "credits", { delta: 1.5 }), "SCHEMA_ERROR", 400);
    expectKnownError(await change(project.server, "user", user.userId, "credits", {}), "SCHEMA_ERROR", 400);
    expectKnownError(
      await change(project.server, "user", user.userId, "credits", { delta: 1, expires_at: "tomorrow" }),
      "SCHEMA_ERROR",
      400,
    );
    expectKnownError(await change(project.server, "user", user.userId, "credits", { delta: 1, idempotency_key: "" }), "SCHEMA_ERROR", 400);
    expect(await quantity("user", user.userId, "credits")).toBe(0);
  });
});

describe("idempotency keys", () => {
  it("apply a retried change once, and refuse the key reused for another change with 409", async () => {
    const user = await signUpUser(server, project);
    const body = { delta: 5, description: "batch 1", idempotency_key: "batch-1" };
    for (let i = 0; i < 3; i++) expect((await change(project.server, "user", user.userId, "credits", body)).status).toBe(200);
    expect(await quantity("user", user.userId, "credits")).toBe(5);
    expectPlainError(
      await change(project.server, "user", user.userId, "credits", { ...body, delta: 6 }),
      409,
      /idempotency key was already used for a different update/,
    );
    // The same key for another customer is another change.
    const other = await signUpUser(server, project);
    await change(project.server, "user", other.userId, "credits", body);
    expect(await quantity("user", other.userId, "credits")).toBe(5);
    expect(await quantity("user", user.userId, "credits")).toBe(5);
  });

  it("apply a change once when its retries arrive at the same time", async () => {
    const user = await signUpUser(server, project);
    const body = { delta: 2, idempotency_key: "together" };
    const results = await Promise.all(Array.from({ length: 10 }, () => change(project.server, "user", user.userId, "credits", body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await quantity("user", user.userId, "credits")).toBe(2);
  });
});

describe("concurrent removals", () => {
  it("of 50 removals of one at once from 20, exactly 20 succeed and the quantity ends at zero", async () => {
    const user = await signUpUser(server, project);
    await change(project.server, "user", user.userId, "credits", { delta: 20 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => change(project.server, "user", user.userId, "credits", { delta: -1 })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(20);
    for (const res of results.filter((r) => r.status !== 200)) expectKnownError(res, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect(await quantity("user", user.userId, "credits")).toBe(0);
  });
});

describe("a deleted customer", () => {
  it("takes its ledger with it", async () => {
    const user = await signUpUser(server, project);
    await change(project.server, "user", user.userId, "credits", { delta: 3 });
    const { db } = server.instance.services;
    const rows = () =>
      db
        .select()
        .from(paymentItemChanges)
        .where(and(eq(paymentItemChanges.customerId, user.userId)));
    expect(await rows()).toHaveLength(1);
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await rows()).toHaveLength(0);
  });
});
