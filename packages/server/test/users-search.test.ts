/**
 * The users search (GET /users?query=…) matches any part of a display name or
 * of any of the user's addresses, case-insensitively, and the start of an id,
 * for texts of any length (trigram indexes serve three characters or more; one
 * or two are read without them). Answers are checked against that rule applied
 * to the users here, so a query that found fewer or more users would fail.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let p: Project;

interface Person {
  id: string;
  name: string | null;
  emails: string[];
}
/** In sign-up order. */
const people: Person[] = [];

const PEOPLE: { name: string | null; email: string | null; secondEmail?: string }[] = [
  { name: "Marguerite Okonkwo", email: "m.okonkwo@northwind.example" },
  { name: "Rafael Quintero", email: "rq@lighthouse-labs.example", secondEmail: "rafael.backup@tidepool.example" },
  { name: "Yuki Tanabe", email: "yuki@northwind.example" },
  { name: null, email: "nameless.person@quietfield.example" },
  { name: "Okon Oduya", email: null },
  { name: "Percent 100% Under_Score Back\\Slash", email: null },
];

beforeAll(async () => {
  server = await createTestServer();
  p = await createProject(server);
  // Another project's user whose name and address share this file's texts: never found from this project.
  const other = await createProject(server);
  const stranger = await server.request("/users", {
    method: "POST",
    as: other.server,
    body: { display_name: "Okon Northwind 100% _ \\", primary_email: "okon@northwind.example" },
  });
  expect(stranger.status, stranger.text).toBe(201);
  for (const person of PEOPLE) {
    const res = await server.request("/users", {
      method: "POST",
      as: p.server,
      body: { ...(person.name ? { display_name: person.name } : {}), ...(person.email ? { primary_email: person.email } : {}) },
    });
    expect(res.status, res.text).toBe(201);
    if (person.secondEmail) {
      const added = await server.request("/contact-channels", {
        method: "POST",
        as: p.server,
        body: { user_id: res.body.id, type: "email", value: person.secondEmail, used_for_auth: false },
      });
      expect(added.status, added.text).toBe(201);
    }
    people.push({ id: res.body.id, name: person.name, emails: [person.email, person.secondEmail].filter((e) => typeof e === "string") });
  }
});
afterAll(() => server?.close());

/** The rule a search follows, on the users of this file (listed oldest first). */
function expected(text: string): string[] {
  const lower = text.toLowerCase();
  return people
    .filter(
      (person) =>
        (person.name ?? "").toLowerCase().includes(lower) ||
        person.emails.some((email) => email.toLowerCase().includes(lower)) ||
        person.id.startsWith(lower),
    )
    .map((person) => person.id);
}

async function search(text: string, extra: Record<string, string | number> = {}): Promise<string[]> {
  const res = await server.request("/users", { as: p.server, query: { query: text, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((u: { id: string }) => u.id);
}

it("finds a user by the middle of a name, in any case", async () => {
  expect(await search("uerite okon")).toEqual([people[0]!.id]);
  expect(await search("QUINTER")).toEqual([people[1]!.id]);
  // Two users share the text: both, in sign-up order.
  expect(await search("okon")).toEqual([people[0]!.id, people[4]!.id]);
  expect(await search("okon")).toEqual(expected("okon"));
});

it("finds a user by the middle of any of their addresses, with or without a name", async () => {
  expect(await search("house-lab")).toEqual([people[1]!.id]);
  expect(await search("ckup@tidep")).toEqual([people[1]!.id]);
  expect(await search("less.pers")).toEqual([people[3]!.id]);
  expect(await search("NORTHWIND.EX")).toEqual([people[0]!.id, people[2]!.id]);
});

it("one- and two-character searches match the same way", async () => {
  for (const text of ["y", "Q", "@", ".", "ok", "ND", "e.", "zz"]) {
    expect(await search(text), text).toEqual(expected(text));
  }
  expect(await search("y")).toEqual([people[2]!.id, people[4]!.id]);
  expect(await search("zz")).toEqual([]);
});

it("takes %, _ and \\ as themselves, not as patterns", async () => {
  for (const text of ["%", "_", "\\", "100%", "r_s", "k\\s", "0% u"]) {
    expect(await search(text), text).toEqual(expected(text));
  }
  expect(await search("%")).toEqual([people[5]!.id]);
  expect(await search("_")).toEqual([people[5]!.id]);
  expect(await search("\\")).toEqual([people[5]!.id]);
});

it("finds a user by the start of their id, three characters or more", async () => {
  const id = people[2]!.id;
  for (const length of [3, 8, 13]) expect(await search(id.slice(0, length))).toContain(id);
  expect(await search(id.slice(0, 13))).toEqual(expected(id.slice(0, 13)));
});

it("pages through the matches of a search", async () => {
  const all = expected("o");
  expect(all.length).toBeGreaterThanOrEqual(4);
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await server.request("/users", { as: p.server, query: { query: "o", limit: 2, ...(cursor ? { cursor } : {}) } });
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body.items.map((u: { id: string }) => u.id));
    cursor = res.body.pagination.next_cursor ?? undefined;
    if (!cursor) break;
  }
  expect(seen).toEqual(all);
});

it("a text many users share is found near the cursor; a rare one past the first stretch through the indexes; both in order", async () => {
  const crowd = await createProject(server);
  const db = server.instance.services.db;
  // Written directly: 3,000 sign-ups over the API would take minutes. Every third user also has a second address.
  await db.execute(sql`
    insert into users (project_id, branch_id, display_name, signed_up_at)
    select ${crowd.id}, 'main', 'Crowd ' || g, now() - g * interval '1 minute' from generate_series(1, 3000) as g`);
  await db.execute(sql`
    insert into contact_channels (project_id, branch_id, user_id, type, value, is_primary, used_for_auth)
    select project_id, branch_id, id, 'email', 'member-' || substr(display_name, 7) || '@crowded.example', true, true
    from users where project_id = ${crowd.id}`);
  await db.execute(sql`
    insert into contact_channels (project_id, branch_id, user_id, type, value)
    select project_id, branch_id, id, 'email', 'other-' || substr(display_name, 7) || '@crowded.example'
    from users where project_id = ${crowd.id} and substr(display_name, 7)::int % 3 = 0`);
  const names = async (query: Record<string, string | number>) => {
    const res = await server.request("/users", { as: crowd.server, query: { desc: "true", limit: 4, ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.items.map((u: { display_name: string }) => u.display_name);
  };
  expect(await names({ query: "ROWDED.EX" })).toEqual(["Crowd 1", "Crowd 2", "Crowd 3", "Crowd 4"]);
  expect(await names({ query: "other-" })).toEqual(["Crowd 3", "Crowd 6", "Crowd 9", "Crowd 12"]);
  expect(await names({ query: "member-1199@" })).toEqual(["Crowd 1199"]);
  // Past the first 2,000 users of the list: by address, by name, and a page that starts inside that stretch and ends past it.
  expect(await names({ query: "member-2999@" })).toEqual(["Crowd 2999"]);
  expect(await names({ query: "crowd 2998" })).toEqual(["Crowd 2998"]);
  expect(await names({ query: "Crowd 250" })).toEqual(["Crowd 250", "Crowd 2500", "Crowd 2501", "Crowd 2502"]);
  // Paged from a cursor: the next page of that search, then its last.
  const res = await server.request("/users", { as: crowd.server, query: { desc: "true", limit: 4, query: "Crowd 250" } });
  const second = await server.request("/users", {
    as: crowd.server,
    query: { desc: "true", limit: 4, query: "Crowd 250", cursor: res.body.pagination.next_cursor },
  });
  expect(second.body.items.map((u: { display_name: string }) => u.display_name)).toEqual([
    "Crowd 2503",
    "Crowd 2504",
    "Crowd 2505",
    "Crowd 2506",
  ]);
  // Ascending, the rare text's users come first from the other end.
  expect(await names({ desc: "false", query: "Crowd 250" })).toEqual(["Crowd 2509", "Crowd 2508", "Crowd 2507", "Crowd 2506"]);
});
