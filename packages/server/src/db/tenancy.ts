/**
 * The one tenancy: every tenant row belongs to a project and one of its branches. A query on a tenant table
 * filters by `inTenancy(table, tenancy)`; a test (test/unit/tenancy-scope.test.ts) fails on one that does not.
 */
import { and, eq, type Column, type SQL } from "drizzle-orm";

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

/** The tenancy columns of a new row. */
export function tenancyOf(t: Tenancy): Tenancy {
  return { projectId: t.projectId, branchId: t.branchId };
}
