import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { teamMembers, users } from "../../db/schema/index.ts";
import { record, type Events } from "../../events/transaction.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

/**
 * Deletes the user of this project and branch; their sessions, contact
 * channels and codes go with the row (the schema's cascades). Returns false,
 * changing nothing, when the project's branch has no such user.
 */
export async function deleteUser(db: Db, events: Events, t: Tenancy, userId: string): Promise<boolean> {
  return events.transaction(db, async (tx) => {
    // Read before the cascade takes them: the deletion is announced with each membership it ends.
    const teams = await tx
      .select({ id: teamMembers.teamId })
      .from(teamMembers)
      .where(and(inTenancy(teamMembers, t), eq(teamMembers.userId, userId)))
      // Oldest membership first, as the user's team list reads: the events come in a stable order.
      .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId));
    const rows = await tx
      .delete(users)
      .where(and(inTenancy(users, t), eq(users.id, userId)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await record(
      tx,
      { type: "user.deleted", ...t, data: { id: userId, teams } },
      ...teams.map(({ id }) => ({ type: "team_membership.deleted" as const, ...t, data: { team_id: id, user_id: userId } })),
    );
    return true;
  });
}
