import { and, eq } from "drizzle-orm";
import type { CacheBus } from "../../cache/bus.ts";
import type { Db } from "../../db/connect.ts";
import { users } from "../../db/schema/index.ts";
import type { Tenancy } from "../contact-channels/channels.ts";

/**
 * Deletes the user of this project and branch; their sessions, contact
 * channels and codes go with the row (the schema's cascades). Returns false,
 * changing nothing, when the project's branch has no such user.
 */
export async function deleteUser(db: Db, bus: CacheBus, t: Tenancy, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(users)
      .where(and(eq(users.projectId, t.projectId), eq(users.branchId, t.branchId), eq(users.id, userId)))
      .returning({ id: users.id });
    if (rows.length > 0) await bus.publish(tx, { t: "user", id: userId });
    return rows.length > 0;
  });
}
