/** The overview's recent users: the newest sign-ups and the most recently active, each read with the user record query in one query. */
import { METRICS_RECENT_USERS } from "@latchkey/shared";
import { and, desc, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { users } from "../../db/schema/index.ts";
import { toUserRecord, userRecordQuery, type UserRecord } from "../users/record.ts";
import type { MetricsScope } from "./user-metrics.ts";
import { inTenancy } from "../../db/tenancy.ts";

/** The users the overview counts: the tenancy's, anonymous ones only when asked for. */
function counted(scope: MetricsScope): SQL | undefined {
  return and(inTenancy(users, scope), scope.includeAnonymous ? undefined : eq(users.isAnonymous, false));
}

/** Newest first. */
export async function recentlyRegistered(db: DbOrTx, scope: MetricsScope): Promise<UserRecord[]> {
  const rows = await userRecordQuery(db).where(counted(scope)).orderBy(desc(users.signedUpAt), desc(users.id)).limit(METRICS_RECENT_USERS);
  return rows.map(toUserRecord);
}

/** Most recently active first (by last_active_at, moved on sign-in and refresh: domain/users/activity.ts). */
export async function recentlyActive(db: DbOrTx, scope: MetricsScope): Promise<UserRecord[]> {
  const rows = await userRecordQuery(db)
    .where(counted(scope))
    .orderBy(desc(users.lastActiveAt), desc(users.id))
    .limit(METRICS_RECENT_USERS);
  return rows.map(toUserRecord);
}
