/**
 * The one tenancy: every tenant row belongs to a project and one of its branches. A query on a tenant table
 * filters by `inTenancy(table, tenancy)`; a test (test/unit/tenancy-scope.test.ts) fails on one that does not.
 */
import { and, eq, sql, type Column, type SQL } from "drizzle-orm";

export interface Tenancy {
  projectId: string;
  branchId: string;
}

/** A table whose rows belong to one tenancy. */
export interface TenantTable {
  projectId: Column;
  branchId: Column;
}

/** The condition that keeps a query inside one tenancy. */
export function inTenancy(table: TenantTable, t: Tenancy): SQL {
  return and(eq(table.projectId, t.projectId), eq(table.branchId, t.branchId))!;
}

/**
 * The same condition for a prepared statement: the tenancy is given at execution, as the placeholders
 * `projectId` and `branchId`.
 */
export function preparedInTenancy(table: TenantTable): SQL {
  return and(eq(table.projectId, sql.placeholder("projectId")), eq(table.branchId, sql.placeholder("branchId")))!;
}

/** The same condition in raw SQL, on the tenant table named `alias` in the query's from clause. */
export function sqlInTenancy(alias: string, t: Tenancy): SQL {
  const table = sql.identifier(alias);
  return sql`${table}.project_id = ${t.projectId} and ${table}.branch_id = ${t.branchId}`;
}

/** The tenancy columns of a new row. */
export function tenancyOf(t: Tenancy): Tenancy {
  return { projectId: t.projectId, branchId: t.branchId };
}
