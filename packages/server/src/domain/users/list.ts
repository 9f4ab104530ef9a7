/**
 * Listing users by sign-up time (tie-break: id). The cursor is the id of the
 * first user of the wanted page; a page fetches one extra row to know the
 * next cursor. Backed by the (project, branch, signed_up_at, id) index.
 */
import { and, asc, desc as descending, eq, exists, ilike, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { contactChannels, teamMembers, users } from "../../db/schema/index.ts";
import { toUserRecord, userRecordQuery, type UserRecord } from "./record.ts";

export interface ListUsersOptions {
  cursor: string | null;
  limit: number | null;
  desc: boolean;
  search: string | null;
  includeAnonymous: boolean;
  teamId: string | null;
}

export async function listUsers(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  options: ListUsersOptions,
): Promise<{ items: UserRecord[]; nextCursor: string | null }> {
  const filters: (SQL | undefined)[] = [eq(users.projectId, projectId), eq(users.branchId, branchId)];
  if (!options.includeAnonymous) filters.push(eq(users.isAnonymous, false));
  if (options.teamId) {
    filters.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(teamMembers)
          .where(and(eq(teamMembers.teamId, options.teamId), eq(teamMembers.userId, users.id))),
      ),
    );
  }
  if (options.search) {
    const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(
      or(
        ilike(users.displayName, pattern),
        sql`${users.id}::text ilike ${pattern}`,
        exists(
          db
            .select({ one: sql`1` })
            .from(contactChannels)
            .where(and(eq(contactChannels.userId, users.id), ilike(contactChannels.value, pattern))),
        ),
      ),
    );
  }
  if (options.cursor) {
    // Rows at or after the cursor row, in the listing's direction.
    // (Raw SQL: Drizzle drops column aliases of a select embedded in sql``.)
    const op = options.desc ? sql.raw("<=") : sql.raw(">=");
    filters.push(
      sql`(${users.signedUpAt}, ${users.id}) ${op} (select c.signed_up_at, c.id from ${users} as c where c.project_id = ${projectId} and c.branch_id = ${branchId} and c.id = ${options.cursor})`,
    );
  }
  const order = options.desc ? [descending(users.signedUpAt), descending(users.id)] : [asc(users.signedUpAt), asc(users.id)];
  let query = userRecordQuery(db)
    .where(and(...filters))
    .orderBy(...order)
    .$dynamic();
  if (options.limit !== null) query = query.limit(options.limit + 1);
  const rows = (await query).map(toUserRecord);
  if (options.limit === null || rows.length <= options.limit) return { items: rows, nextCursor: null };
  return { items: rows.slice(0, options.limit), nextCursor: rows[options.limit]!.id };
}
