/**
 * Listing users by sign-up time or by last activity (tie-break: id). The
 * cursor is the id of the first user of the wanted page; a page fetches one
 * extra row to know the next cursor. Backed by the (project, branch, order
 * column, id) indexes.
 */
import { and, asc, desc as descending, eq, exists, ilike, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { contactChannels, teamMembers, users } from "../../db/schema/index.ts";
import { toUserRecord, userRecordQuery, type UserRecord, type UserRecordRow } from "./record.ts";
import { inTenancy, sqlInTenancy } from "../../db/tenancy.ts";

export type UserOrder = "signed_up_at" | "last_active_at";

/** What selects and orders the users of a list, paging aside. */
export interface UserListFilters {
  desc: boolean;
  orderBy: UserOrder;
  search: string | null;
  includeAnonymous: boolean;
  onlyAnonymous: boolean;
  teamId: string | null;
}

export interface ListUsersOptions extends Partial<UserListFilters> {
  cursor: string | null;
  limit: number | null;
  desc: boolean;
  search: string | null;
  includeAnonymous: boolean;
  teamId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ID_TEMPLATE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

/** The lowest and highest ids that start with `text`, or null when `text` cannot start an id. */
export function idPrefixRange(text: string): [string, string] | null {
  const lower = text.toLowerCase();
  if (lower.length === 0 || lower.length > ID_TEMPLATE.length) return null;
  for (let i = 0; i < lower.length; i++) {
    const wanted = ID_TEMPLATE[i] === "-" ? lower[i] === "-" : /[0-9a-f]/.test(lower[i]!);
    if (!wanted) return null;
  }
  const fill = (digit: string) => lower + [...ID_TEMPLATE.slice(lower.length)].map((c) => (c === "-" ? "-" : digit)).join("");
  return [fill("0"), fill("f")];
}

const orderColumn = (order: UserOrder) => (order === "last_active_at" ? users.lastActiveAt : users.signedUpAt);

/**
 * Past this many matching addresses, the list read in order finds a page's worth soonest, and the addresses are read
 * as a hashed set; up to it, their users' ids go in the query as a list the primary key answers.
 */
const ADDRESS_MATCHES_AS_IDS = 1000;
const TRIGRAM = 3;
/** Trigrams are made of letters and digits only: "a.b" has none to look up. */
const trigramLength = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, "").length;

/**
 * A search first reads this many users in list order (from the cursor on), checking each: a text many users share
 * fills the page there, in a few milliseconds, where any index would find every match first.
 */
const NEAR_CURSOR_USERS = 2000;

/**
 * The filters of a list in SQL: tenancy, anonymous users, team and search. `addresses`: how a search reaches the
 * matching addresses, `indexed` (through their trigram index, for the whole list) or `per-user` (each user's own,
 * through the user's index, for a short stretch of the list).
 */
export async function userListConditions(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  options: UserListFilters,
  addresses: "indexed" | "per-user" = "indexed",
): Promise<SQL[]> {
  const filters: SQL[] = [inTenancy(users, { projectId, branchId })];
  if (options.onlyAnonymous) filters.push(eq(users.isAnonymous, true));
  else if (!options.includeAnonymous) filters.push(eq(users.isAnonymous, false));
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
  const search = options.search?.trim();
  if (search && UUID.test(search)) {
    // A whole id names one user: found through the primary key rather than by reading every id as text.
    filters.push(eq(users.id, search.toLowerCase()));
  } else if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A new builder each time: a builder's methods change it in place.
    const matchingChannels = () =>
      db
        .select({ userId: contactChannels.userId })
        .from(contactChannels)
        .where(and(inTenancy(contactChannels, { projectId, branchId }), ilike(contactChannels.value, pattern)));
    // Read first (through the trigram index on addresses): a few go in as ids, which the primary key answers next to
    // the trigram index on names (one bitmap scan of the users who match, not a read of them all); many stay a hashed
    // set, which the list read in order consults until the page is full. As a subquery, the planner would guess how
    // many there are, and a wrong guess for an address most users share cost seconds. A text shorter than a trigram
    // gains nothing from either index, so it skips that first read.
    const perUser = addresses === "per-user";
    const matched = trigramLength(search) < TRIGRAM || perUser ? [] : await matchingChannels().limit(ADDRESS_MATCHES_AS_IDS + 1);
    const byAddress = perUser
      ? exists(
          db
            .select({ one: sql`1` })
            .from(contactChannels)
            .where(
              and(
                inTenancy(contactChannels, { projectId, branchId }),
                eq(contactChannels.userId, users.id),
                ilike(contactChannels.value, pattern),
              ),
            ),
        )
      : trigramLength(search) < TRIGRAM || matched.length > ADDRESS_MATCHES_AS_IDS
        ? sql`${users.id} in (${matchingChannels()})`
        : matched.length > 0
          ? // One parameter whatever the count, so the statement stays one prepared statement.
            sql`${users.id} = any(${`{${matched.map((row) => row.userId).join(",")}}`}::uuid[])`
          : undefined;
    const idRange = idPrefixRange(search);
    // An id is matched from its start, as a range of the primary key: reading every id as text cost more than the rest.
    filters.push(
      or(ilike(users.displayName, pattern), byAddress, idRange ? sql`${users.id} between ${idRange[0]} and ${idRange[1]}` : undefined)!,
    );
  }
  return filters;
}

export function userListOrder(options: Pick<UserListFilters, "desc" | "orderBy">): SQL[] {
  const column = orderColumn(options.orderBy);
  return options.desc ? [descending(column), descending(users.id)] : [asc(column), asc(users.id)];
}

/**
 * Runs a search's reads with plans made for its text. Which plan is best depends on the text (rare: through the
 * indexes; common: the list in order), and PostgreSQL otherwise reuses one generic plan for every text once a
 * prepared statement has run a few times.
 */
export function withPlansPerSearch<T>(db: DbOrTx, read: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    return read(tx);
  });
}

export async function listUsers(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  options: ListUsersOptions,
): Promise<{ items: UserRecord[]; nextCursor: string | null }> {
  const rows = (
    options.search?.trim()
      ? await withPlansPerSearch(
          db,
          async (tx) =>
            (await searchNearCursor(tx, projectId, branchId, options)) ??
            (await (
              await listUsersQuery(tx, projectId, branchId, options)
            ).query),
        )
      : await (
          await listUsersQuery(db, projectId, branchId, options)
        ).query
  ).map(toUserRecord);
  if (options.limit === null || rows.length <= options.limit) return { items: rows, nextCursor: null };
  return { items: rows.slice(0, options.limit), nextCursor: rows[options.limit]!.id };
}

function listFilters(options: ListUsersOptions): UserListFilters {
  return {
    desc: options.desc,
    orderBy: options.orderBy ?? "signed_up_at",
    search: options.search,
    includeAnonymous: options.includeAnonymous,
    onlyAnonymous: options.onlyAnonymous ?? false,
    teamId: options.teamId,
  };
}

/** Where a row stands to the user `id` in the listing's direction: `from` it on, strictly `after` it, or up `through` it. */
export type ListPosition = "from" | "after" | "through";

const POSITION_OPERATORS: Record<"asc" | "desc", Record<ListPosition, string>> = {
  asc: { from: ">=", after: ">", through: "<=" },
  desc: { from: "<=", after: "<", through: ">=" },
};

/**
 * The rows at `position` to the user `id`, by the order column and id. The user's own value is read again by id: a
 * JavaScript Date would drop the microseconds the column keeps.
 */
export function relativeTo(projectId: string, branchId: string, filters: UserListFilters, id: string, position: ListPosition): SQL {
  const op = POSITION_OPERATORS[filters.desc ? "desc" : "asc"][position];
  // (Raw SQL: Drizzle drops column aliases of a select embedded in sql``.)
  const column = sql.raw(filters.orderBy === "last_active_at" ? "c.last_active_at" : "c.signed_up_at");
  return sql`(${orderColumn(filters.orderBy)}, ${users.id}) ${sql.raw(op)} (select ${column}, c.id from ${users} as c where ${sqlInTenancy("c", { projectId, branchId })} and c.id = ${id})`;
}

/**
 * A search's page when the next NEAR_CURSOR_USERS users of the list hold it (or are all there is); null when it
 * must be looked for through the indexes instead.
 */
async function searchNearCursor(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  options: ListUsersOptions,
): Promise<UserRecordRow[] | null> {
  if (options.limit === null) return null;
  const filters = listFilters(options);
  const stretch = await userListConditions(db, projectId, branchId, { ...filters, search: null });
  if (options.cursor) stretch.push(relativeTo(projectId, branchId, filters, options.cursor, "from"));
  const [last] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...stretch))
    .orderBy(...userListOrder(filters))
    .offset(NEAR_CURSOR_USERS - 1)
    .limit(1);
  const rows = await (await listUsersQuery(db, projectId, branchId, options, { addresses: "per-user", throughId: last?.id })).query;
  // A full page (with its next cursor) found within the stretch is the page; so is what the stretch held when it was the whole rest.
  return rows.length > options.limit || !last ? rows : null;
}

/**
 * The page's query, one row past the limit (the benchmark reads its plan too); wrapped, as awaiting it would run it.
 * `within`: a stretch of the list only, up through the user `throughId`, its addresses read per user.
 */
export async function listUsersQuery(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  options: ListUsersOptions,
  within: { addresses?: "indexed" | "per-user"; throughId?: string } = {},
) {
  const filters = listFilters(options);
  const conditions = await userListConditions(db, projectId, branchId, filters, within.addresses);
  if (options.cursor) conditions.push(relativeTo(projectId, branchId, filters, options.cursor, "from"));
  if (within.throughId) conditions.push(relativeTo(projectId, branchId, filters, within.throughId, "through"));
  let query = userRecordQuery(db)
    .where(and(...conditions))
    .orderBy(...userListOrder(filters))
    .$dynamic();
  if (options.limit !== null) query = query.limit(options.limit + 1);
  return { query };
}
