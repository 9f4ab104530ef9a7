/**
 * The users page's requests at 100,000 users (`BENCH_SCENARIOS=users-page`):
 * an instance in this process on a fresh database (PGlite, then PostgreSQL
 * when DATABASE_URL is set), users and their e-mails written by two
 * `insert … select from generate_series` statements, then each request the
 * page sends timed through app.request() (server time, no network), with
 * the plan PostgreSQL picks for its query.
 */
import { sql } from "drizzle-orm";
import { listUsersQuery, type ListUsersOptions } from "../src/domain/users/list.ts";
import { createProject } from "../test/fixtures.ts";
import { createTestServer, type Auth, type TestServer } from "../test/harness.ts";

export const USERS_PAGE_USERS = 100_000;
const RUNS = 9;

export interface UsersPageRow {
  request: string;
  medianMillis: number;
  maxMillis: number;
  plan: string;
}

async function seedUsers(server: TestServer, projectId: string): Promise<void> {
  const db = server.instance.services.db;
  // Sign-ups a minute apart; last activity scattered over the same span; one user in 20 anonymous (no e-mail).
  await db.execute(sql`
    insert into users (project_id, branch_id, display_name, signed_up_at, last_active_at, is_anonymous)
    select ${projectId}, 'main', case when g % 20 = 0 then null else 'Bench User ' || g end,
      now() - g * interval '1 minute', now() - ((g * 7919) % ${USERS_PAGE_USERS}) * interval '1 minute', g % 20 = 0
    from generate_series(1, ${USERS_PAGE_USERS}) as g`);
  await db.execute(sql`
    insert into contact_channels (project_id, branch_id, user_id, type, value, is_verified, is_primary, used_for_auth)
    select project_id, branch_id, id, 'email', 'bench-user-' || substr(display_name, 12) || '@example.com', true, true, true
    from users where project_id = ${projectId} and not is_anonymous`);
  await db.execute(sql`analyze users`);
  await db.execute(sql`analyze contact_channels`);
}

/** The query's text with its parameters written in, for EXPLAIN (a benchmark's own literals only). */
function inlined(query: { sql: string; params: unknown[] }): string {
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = query.params[Number(n) - 1];
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    const text = value instanceof Date ? value.toISOString() : String(value);
    return `'${text.replaceAll("'", "''")}'`;
  });
}

async function planOf(server: TestServer, projectId: string, options: ListUsersOptions): Promise<string> {
  const db = server.instance.services.db;
  const query = (await listUsersQuery(db, projectId, "main", options)).query.toSQL();
  const result = await db.execute(sql.raw(`explain ${inlined(query)}`));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { "QUERY PLAN": string }[];
  // The lines that name how users are read: the index (or a scan) the order and filters use.
  return rows
    .map((r) => r["QUERY PLAN"].trim())
    .filter((line) => /users|contact_channels/.test(line) && /Scan|Index/.test(line))
    .map((line) => line.replace(/^->\s*/, "").replace(/\s+\(cost=.*$/, ""))
    .join("; ");
}

async function timed(server: TestServer, path: string, query: Record<string, string>, as: Auth) {
  const times: number[] = [];
  let body: { pagination?: { next_cursor: string | null }; items?: unknown[] } = {};
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now();
    const res = await server.request(path, { as, query });
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    body = res.body;
    // The first two runs warm the caches and the plan.
    if (i >= 2) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, body };
}

export async function usersPageBench(label: string, databaseUrl: string | null): Promise<UsersPageRow[]> {
  if (databaseUrl) {
    process.env.LATCHKEY_TEST_DB = "postgres";
    process.env.TEST_DATABASE_URL = databaseUrl;
  } else delete process.env.LATCHKEY_TEST_DB;
  // Answers are not checked against their schemas here: that is the tests' job, and it costs time a deployment does not spend.
  const server = await createTestServer({ checkResponses: false });
  try {
    const project = await createProject(server);
    process.stdout.write(`[${label}] users page: seeding ${USERS_PAGE_USERS} users…\n`);
    const seeding = performance.now();
    await seedUsers(server, project.id);
    process.stdout.write(`[${label}] seeded in ${Math.round(performance.now() - seeding)} ms\n`);
    const base = { limit: 25, desc: true, search: null, includeAnonymous: false, teamId: null, cursor: null } as const;
    const rows: UsersPageRow[] = [];
    const measure = async (request: string, query: Record<string, string>, options: ListUsersOptions) => {
      const { median, max, body } = await timed(server, "/users", query, project.admin);
      rows.push({ request, medianMillis: median, maxMillis: max, plan: await planOf(server, project.id, options) });
      process.stdout.write(`[${label}] ${request}: ${median.toFixed(1)} ms (max ${max.toFixed(1)})\n`);
      return body;
    };
    await measure("first page (newest sign-ups)", { limit: "25", desc: "true" }, base);
    await measure(
      "search by e-mail (one match)",
      { limit: "25", desc: "true", query: "bench-user-54321@" },
      { ...base, search: "bench-user-54321@" },
    );
    await measure("search by name (11 matches)", { limit: "25", desc: "true", query: "user 9999" }, { ...base, search: "user 9999" });
    // Texts most users match, and texts too short for a trigram index: the list read in order, or a whole scan.
    const search = async (request: string, text: string) =>
      measure(request, { limit: "25", desc: "true", query: text }, { ...base, search: text });
    await search("search by a name part everyone has", "bench user");
    await search("search by an address part everyone has", "example.com");
    await search("search by one character (most match)", "7");
    await search("search by two characters (none match)", "zq");
    const activity = await measure(
      "recently active first",
      { limit: "25", desc: "true", order_by: "last_active_at" },
      { ...base, orderBy: "last_active_at" },
    );
    const cursor = activity.pagination!.next_cursor!;
    await measure(
      "recently active first, page 2",
      { limit: "25", desc: "true", order_by: "last_active_at", cursor },
      { ...base, orderBy: "last_active_at", cursor },
    );
    await measure(
      "only anonymous",
      { limit: "25", desc: "true", include_anonymous: "true", only_anonymous: "true" },
      { ...base, onlyAnonymous: true },
    );
    const exportStart = performance.now();
    const exported = await server.request("/internal/users/export", { as: project.admin, query: { format: "csv" } });
    const exportMillis = performance.now() - exportStart;
    const lines = exported.text.split("\r\n").length - 2;
    rows.push({ request: `export CSV of all ${lines} non-anonymous users`, medianMillis: exportMillis, maxMillis: exportMillis, plan: "" });
    process.stdout.write(`[${label}] export: ${lines} rows in ${Math.round(exportMillis)} ms\n`);
    return rows;
  } finally {
    await server.close();
  }
}

export function usersPageTable(label: string, rows: UsersPageRow[]): string {
  const lines = [
    `${label}, ${USERS_PAGE_USERS.toLocaleString("en")} users (median of ${RUNS} after 2 warm-up runs; server time through app.request):`,
    "",
    "| request | median ms | max ms | plan (users / contact_channels) |",
    "| --- | ---: | ---: | --- |",
    ...rows.map((r) => `| ${r.request} | ${r.medianMillis.toFixed(1)} | ${r.maxMillis.toFixed(1)} | ${r.plan} |`),
  ];
  return lines.join("\n");
}
