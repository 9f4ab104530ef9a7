/** A thread's saved messages: appended one at a time, read back in the order saved. */
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, tenancyOf, type Tenancy } from "../../../db/tenancy.ts";
import { aiChatMessages } from "../schema.ts";

export async function listThreadMessages(db: DbOrTx, tenancy: Tenancy, threadId: string): Promise<unknown[]> {
  const rows = await db
    .select({ content: aiChatMessages.content })
    .from(aiChatMessages)
    .where(and(inTenancy(aiChatMessages, tenancy), eq(aiChatMessages.threadId, threadId)))
    .orderBy(asc(aiChatMessages.id));
  return rows.map((row) => row.content);
}

export async function appendThreadMessage(db: DbOrTx, tenancy: Tenancy, threadId: string, message: unknown, now: Date): Promise<void> {
  await db.insert(aiChatMessages).values({ ...tenancyOf(tenancy), threadId, content: message, createdAt: now });
}
