/**
 * The user list's extensions (order_by=last_active_at, only_anonymous, search
 * by a whole id) and GET /internal/users/export, the list's filtered set
 * streamed as CSV or JSON in keyset batches.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../src/db/schema/index.ts";
import { createProject, expectSchemaErrorIncluding, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let p: Project;
/** Sign-up order: Ada, Bo, Cy, Di; then one anonymous user. */
const ids: string[] = [];
let anonymousId: string;

const db = () => server.instance.services.db;
const idsOf = (res: { body: { items: { id: string }[] } }) => res.body.items.map((u) => u.id);
const list = (query: Record<string, string | number | boolean> = {}, as: Auth = p.server) => server.request("/users", { as, query });
const exportOf = (query: Record<string, string | number | boolean>, as: Auth = p.admin) =>
  server.request("/internal/users/export", { as, query });

async function setLastActive(id: string, at: string) {
  await db()
    .update(users)
    .set({ lastActiveAt: new Date(at) })
    .where(eq(users.id, id));
}

beforeAll(async () => {
  server = await createTestServer();
  p = await createProject(server);
  for (const name of ["Ada", "Bo", "Cy", "Di"]) {
    const res = await server.request("/users", {
      method: "POST",
      as: p.server,
      body: { display_name: name, primary_email: uniqueEmail(name.toLowerCase()), primary_email_verified: name === "Ada" },
    });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: p.client });
  expect(anon.status, anon.text).toBe(200);
  anonymousId = anon.body.user_id;
  // Activity order: Cy, then Ada and Di at the same instant (a tie the id breaks), then Bo.
  await setLastActive(ids[2]!, "2026-01-01T00:00:00.000Z");
  await setLastActive(ids[0]!, "2026-01-02T00:00:00.000Z");
  await setLastActive(ids[3]!, "2026-01-02T00:00:00.000Z");
  await setLastActive(ids[1]!, "2026-01-03T00:00:00.000Z");
  await setLastActive(anonymousId, "2026-01-04T00:00:00.000Z");
});
afterAll(() => server?.close());

const tied = () => [ids[0]!, ids[3]!].sort();
const byActivity = () => [ids[2]!, ...tied(), ids[1]!];

describe("GET /users: order_by=last_active_at", () => {
  it("orders by last activity, ties by id, both ways", async () => {
    const res = await list({ order_by: "last_active_at" });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual(byActivity());
    expect(idsOf(await list({ order_by: "last_active_at", desc: true }))).toEqual([...byActivity()].reverse());
    // The default and the explicit sign-up order agree.
    expect(idsOf(await list({ order_by: "signed_up_at" }))).toEqual(ids);
  });

  it("pages one user at a time through the tie, each user exactly once, both ways", async () => {
    for (const desc of [false, true]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list({ order_by: "last_active_at", desc, limit: 1, ...(cursor ? { cursor } : {}) });
        expect(res.status, res.text).toBe(200);
        seen.push(...idsOf(res));
        cursor = res.body.pagination.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(desc ? [...byActivity()].reverse() : byActivity());
    }
  });

  it("rejects an unknown order", async () => {
    expectSchemaErrorIncluding(
      await list({ order_by: "display_name" }),
      "query.order_by must be one of the following values: signed_up_at, last_active_at",
    );
  });
});

describe("GET /users: only_anonymous and search by id", () => {
  it("only_anonymous=true lists anonymous users alone, asked for with include_anonymous=true", async () => {
    expect(idsOf(await list({ only_anonymous: true, include_anonymous: true }))).toEqual([anonymousId]);
    expectSchemaErrorIncluding(
      await list({ only_anonymous: true, include_anonymous: false }),
      "query.only_anonymous requires include_anonymous=true",
    );
    expect(idsOf(await list({ only_anonymous: false }))).toEqual(ids);
    expectSchemaErrorIncluding(
      await list({ only_anonymous: "yes" }),
      "query.only_anonymous must be one of the following values: true, false",
    );
  });

  it("a whole id finds its user, in any case; the start of an id matches", async () => {
    expect(idsOf(await list({ query: ids[1]! }))).toEqual([ids[1]]);
    expect(idsOf(await list({ query: ids[1]!.toUpperCase() }))).toEqual([ids[1]]);
    expect(idsOf(await list({ query: ` ${ids[2]!} ` }))).toEqual([ids[2]]);
    expect(idsOf(await list({ query: ids[3]!.slice(0, 13) }))).toContain(ids[3]);
    // An anonymous user's id finds them only where anonymous users are listed.
    expect(idsOf(await list({ query: anonymousId }))).toEqual([]);
    expect(idsOf(await list({ query: anonymousId, include_anonymous: true }))).toEqual([anonymousId]);
  });
});

describe("GET /internal/users/export", () => {
  function csvRows(text: string): string[][] {
    return text
      .split("\r\n")
      .filter((line) => line !== "")
      .map((line) => line.split(","));
  }

  it("CSV: a header, then the filtered users in the list's order", async () => {
    const res = await exportOf({ format: "csv", order_by: "last_active_at", desc: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="users.csv"');
    const [header, ...rows] = csvRows(res.text);
    expect(header).toEqual([
      "id",
      "display_name",
      "primary_email",
      "primary_email_verified",
      "is_anonymous",
      "signed_up_at",
      "last_active_at",
      "sign_in_methods",
    ]);
    expect(rows.map((r) => r[0])).toEqual([...byActivity()].reverse());
    const ada = rows.find((r) => r[0] === ids[0])!;
    expect(ada[1]).toBe("Ada");
    expect(ada[2]).toMatch(/^ada/);
    expect(ada[3]).toBe("true");
    expect(ada[6]).toBe("2026-01-02T00:00:00.000Z");
    const search = await exportOf({ format: "csv", query: "cy" });
    expect(
      csvRows(search.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([ids[2]]);
    const anonymous = await exportOf({ format: "csv", only_anonymous: true, include_anonymous: true });
    expect(csvRows(anonymous.text).slice(1)).toEqual([[anonymousId, "", "", "false", "true", expect.any(String), expect.any(String), ""]]);
  });

  it("CSV quotes fields with commas and quotes", async () => {
    const created = await server.request("/users", {
      method: "POST",
      as: p.server,
      body: { display_name: 'Smith, "Jo"', primary_email: uniqueEmail("quoted") },
    });
    expect(created.status, created.text).toBe(201);
    const res = await exportOf({ format: "csv", query: created.body.id });
    expect(res.text.split("\r\n")[1]).toContain(`${created.body.id},"Smith, ""Jo""",`);
    await db().delete(users).where(eq(users.id, created.body.id));
  });

  it("CSV: text a spreadsheet would run as a formula is kept as text", async () => {
    const created = await server.request("/users", {
      method: "POST",
      as: p.server,
      body: { display_name: '=HYPERLINK("http://evil.example","x")', primary_email: uniqueEmail("formula") },
    });
    expect(created.status, created.text).toBe(201);
    const res = await exportOf({ format: "csv", query: created.body.id });
    expect(res.text.split("\r\n")[1]).toContain(`${created.body.id},"'=HYPERLINK(""http://evil.example"",""x"")",`);
    // The JSON export gives the name exactly as stored.
    const json = await exportOf({ format: "json", query: created.body.id });
    expect((json.body as { display_name: string }[])[0]!.display_name).toBe('=HYPERLINK("http://evil.example","x")');
    await db().delete(users).where(eq(users.id, created.body.id));
  });

  it("JSON: an array of server user objects", async () => {
    const res = await exportOf({ format: "json", include_anonymous: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((res.body as { id: string }[]).map((u) => u.id)).toEqual([...ids, anonymousId]);
    const one = (res.body as Record<string, unknown>[])[0]!;
    expect(one).toMatchObject({ id: ids[0], display_name: "Ada", primary_email_verified: true, is_anonymous: false });
    const empty = await exportOf({ format: "json", query: "zz-nobody-zz" });
    expect(empty.body).toEqual([]);
  });

  it("reads batch after batch: every user once, in order, past several batches", async () => {
    const big = await createProject(server);
    const rows = Array.from({ length: 1_203 }, (_, i) => ({
      projectId: big.id,
      branchId: "main",
      displayName: `Bulk ${i}`,
      // Pairs of users share an instant, so batch edges fall inside ties.
      signedUpAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 1000),
    }));
    const inserted = await db().insert(users).values(rows).returning({ id: users.id, signedUpAt: users.signedUpAt });
    const expected = [...inserted]
      .sort((a, b) => a.signedUpAt.getTime() - b.signedUpAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((u) => u.id);
    for (const desc of [false, true]) {
      const res = await exportOf({ format: "json", desc }, big.admin);
      expect(res.status).toBe(200);
      expect((res.body as { id: string }[]).map((u) => u.id)).toEqual(desc ? [...expected].reverse() : expected);
    }
    const csv = await exportOf({ format: "csv" }, big.admin);
    expect(
      csvRows(csv.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(expected);
    await db()
      .delete(users)
      .where(
        inArray(
          users.id,
          inserted.map((u) => u.id),
        ),
      );
  });

  it("refuses a missing or unknown format, list paging and non-admin callers", async () => {
    expectSchemaErrorIncluding(await exportOf({}), "query.format must be one of the following values: csv, json");
    expectSchemaErrorIncluding(await exportOf({ format: "xml" }), "query.format must be one of the following values: csv, json");
    expectSchemaErrorIncluding(await exportOf({ format: "csv", limit: 2 }), "query contains unknown properties: limit");
    expectSchemaErrorIncluding(
      await exportOf({ format: "csv", order_by: "email" }),
      "query.order_by must be one of the following values: signed_up_at, last_active_at",
    );
    const asServer = await exportOf({ format: "csv" }, p.server);
    expectKnownError(asServer, "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(asServer.body.details).toEqual({ actual_access_type: "server", allowed_access_types: ["admin"] });
    expectKnownError(await exportOf({ format: "csv" }, p.client), "INSUFFICIENT_ACCESS_TYPE", 401);
    const user = await signUpUser(server, p);
    expectKnownError(await exportOf({ format: "csv" }, user.as), "INSUFFICIENT_ACCESS_TYPE", 401);
    // The owner's own token is admin access too.
    expect((await exportOf({ format: "csv" }, p.ownerAdmin)).status).toBe(200);
  });
});
