/**
 * Every drizzle query on a tenant table keeps to one tenancy (src/db/tenancy.ts): the check of tenancy-scope.ts finds
 * none in packages/server/src that does not, and it does find the ones in the small sources below.
 */
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema/index.ts";
import { SERVER_SRC, serverSources } from "./server-sources.ts";
import { tenancyFindings, type Finding, type TenantTable } from "./tenancy-scope.ts";

/** The tenant tables: the schema's tables with both a project_id and a branch_id column. */
const TENANT_TABLES: TenantTable[] = Object.entries(schema).flatMap(([name, value]) => {
  if (!(value instanceof PgTable)) return [];
  const config = getTableConfig(value);
  const columns = new Set(config.columns.map((c) => c.name));
  return columns.has("project_id") && columns.has("branch_id") ? [{ name, sqlName: config.name }] : [];
});

/** The server's sources, by path under packages/server/src (as findings name them). */
function sourcesBySrcPath(): Record<string, string> {
  return Object.fromEntries(Object.entries(serverSources()).map(([path, text]) => [relative(SERVER_SRC, path), text]));
}

const show = (findings: Finding[]) => findings.map((f) => `packages/server/src/${f.file}:${f.line}: ${f.message}`).join("\n");

describe("the server's queries", () => {
  it("knows the tenant tables from the schema", () => {
    const names = TENANT_TABLES.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["users", "teams", "teamMembers", "contactChannels", "sessions", "verificationCodes"]));
    expect(names).not.toContain("projects");
    expect(names).not.toContain("sentEmails");
  });

  it("each keep to one tenancy", () => {
    const findings = tenancyFindings(sourcesBySrcPath(), TENANT_TABLES);
    expect(findings, `Queries on tenant tables without a tenancy:\n${show(findings)}\n`).toEqual([]);
  });
});

/** The findings for one small source, as `line: message start`. */
function check(source: string): string[] {
  const header = [
    'import { and, eq, sql } from "drizzle-orm";',
    'import { contactChannels, projects, teamMembers, teams, users } from "../db/schema/index.ts";',
    'import { inTenancy, preparedInTenancy, sqlInTenancy, type Tenancy } from "../db/tenancy.ts";',
    "declare const db: any;",
    "declare const t: Tenancy;",
    "declare const id: string;",
  ].join("\n");
  return tenancyFindings({ "domain/probe.ts": `${header}\n${source}` }, TENANT_TABLES).map(
    (f) => `${f.line - 6}: ${f.message.split(":")[0]}`,
  );
}

describe("the check", () => {
  it("finds a select, an update and a delete with no tenancy", () => {
    expect(check("export const a = db.select().from(users).where(eq(users.id, id));")).toEqual([
      "1: a query on tenant table users has no tenancy",
    ]);
    expect(check("export const a = db.update(teams).set({ displayName: 'x' }).where(eq(teams.id, id));")).toEqual([
      "1: a query on tenant table teams has no tenancy",
    ]);
    expect(check("export const a = db.delete(teamMembers);")).toEqual(["1: a query on tenant table teamMembers has no tenancy"]);
  });

  it("finds a query that filters by project alone, or by another table's tenancy", () => {
    expect(check("export const a = db.select().from(users).where(and(eq(users.projectId, t.projectId), eq(users.id, id)));")).toEqual([
      "1: a query on tenant table users has no tenancy",
    ]);
    expect(check("export const a = db.select().from(users).where(inTenancy(teams, t));")).toEqual([
      "1: a query on tenant table users has no tenancy",
    ]);
  });

  it("accepts inTenancy in the where, directly, in and(…), through a constant or a function", () => {
    expect(check("export const a = db.select().from(users).where(and(inTenancy(users, t), eq(users.id, id)));")).toEqual([]);
    expect(check("const byId = and(inTenancy(users, t), eq(users.id, id));\nexport const a = db.delete(users).where(byId);")).toEqual([]);
    expect(
      check(
        "function mine(x: Tenancy) { return and(inTenancy(teams, x), eq(teams.id, id)); }\nexport const a = db.select().from(teams).where(mine(t));",
      ),
    ).toEqual([]);
    expect(check("const filters = [inTenancy(users, t)];\nexport const a = db.select().from(users).where(and(...filters));")).toEqual([]);
    expect(check("export const a = db.select().from(users).where(preparedInTenancy(users)).prepare('p');")).toEqual([]);
  });

  it("follows a query a function returns to where it is finished", () => {
    const factory = "function query() { return db.select().from(users); }\n";
    // Found where the query is finished.
    expect(check(`${factory}export const a = query().where(eq(users.id, id));`)).toEqual([
      "2: a query on tenant table users has no tenancy",
    ]);
    expect(check(`${factory}export const a = query().where(inTenancy(users, t));`)).toEqual([]);
  });

  it("accepts a tenant table joined by key to a kept row, and finds one joined otherwise", () => {
    const kept = "db.select().from(users)";
    expect(check(`export const a = ${kept}.leftJoin(teams, eq(teams.id, users.selectedTeamId)).where(inTenancy(users, t));`)).toEqual([]);
    expect(check(`export const a = ${kept}.leftJoin(teams, eq(teams.displayName, 'x')).where(inTenancy(users, t));`)).toEqual([
      "1: tenant table teams is joined without tenancy",
    ]);
    // A join onto a table outside any tenancy needs its own condition.
    expect(check("export const a = db.select().from(projects).innerJoin(users, eq(users.projectId, projects.id));")).toEqual([
      "1: tenant table users is joined without tenancy",
    ]);
  });

  it("accepts a subquery correlated with the row of the query around it", () => {
    expect(
      check(
        "export const a = db.select().from(users).where(and(inTenancy(users, t), sql`exists ${db.select().from(teamMembers).where(eq(teamMembers.userId, users.id))}`));",
      ),
    ).toEqual([]);
  });

  it("finds raw SQL on a tenant table without sqlInTenancy, by name or as a table", () => {
    expect(check("export const a = sql`select count(*) from users u where u.project_id = ${t.projectId}`;")).toEqual([
      "1: raw SQL on tenant table users u has no tenancy",
    ]);
    expect(check("export const a = sql`select 1 from ${contactChannels} where ${contactChannels.value} = ${id}`;")).toEqual([
      "1: raw SQL on tenant table contactChannels has no tenancy",
    ]);
    expect(check('export const a = sql`select count(*) from users u where ${sqlInTenancy("u", t)}`;')).toEqual([]);
    expect(
      check('export const a = sql`select 1 from users u join contact_channels c on c.user_id = u.id where ${sqlInTenancy("u", t)}`;'),
    ).toEqual([]);
  });

  it("accepts a statement that says why it crosses tenancies, and only with a reason", () => {
    const query = "export const a = db.delete(users).where(eq(users.id, id));";
    expect(check(`// tenancy: housekeeping deletes rows of every project\n${query}`)).toEqual([]);
    expect(check(`// tenancy:\n${query}`)).toEqual(["2: a query on tenant table users has no tenancy"]);
    expect(check(`// tenancy: short\n${query}`)).toEqual(["2: a query on tenant table users has no tenancy"]);
  });

  it("says where and what to do", () => {
    const [finding] = tenancyFindings({ "domain/x.ts": "\n\nexport const a = db.select().from(users);" }, TENANT_TABLES);
    expect(finding).toEqual({
      file: "domain/x.ts",
      line: 3,
      message: expect.stringMatching(/add inTenancy\(users, tenancy\) to its \.where\(…\), or say why .*"\/\/ tenancy: <reason>"/),
    });
  });
});
