import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { sentEmails, type SentEmailRow } from "../../db/schema/index.ts";

/** The last 500 are enough for the dashboard's list. */
const RECENT_LIMIT = 500;

/** The project's most recent e-mails (sent, waiting or failed), newest first. */
export async function recentSentEmails(db: DbOrTx, projectId: string): Promise<SentEmailRow[]> {
  return db.select().from(sentEmails).where(eq(sentEmails.projectId, projectId)).orderBy(desc(sentEmails.createdAt)).limit(RECENT_LIMIT);
}
