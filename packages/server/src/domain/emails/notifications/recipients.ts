/**
 * Who a bulk send reaches: each user with their primary e-mail and whether
 * they turned the message's category off, read in one query.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { contactChannels, notificationPreferences, users } from "../../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { NotificationCategory } from "./preferences.ts";

export interface Recipient {
  userId: string;
  displayName: string | null;
  primaryEmail: string | null;
  /** The user turned this category off. */
  optedOut: boolean;
}

/** Named users (in the given order, each once), or every user who is not anonymous (by sign-up time). */
export type Audience = { userIds: string[] } | { allUsers: true };

export async function loadRecipients(db: DbOrTx, t: Tenancy, category: NotificationCategory, audience: Audience): Promise<Recipient[]> {
  const filter: SQL =
    "userIds" in audience
      ? // One JSON parameter however many ids: an IN list would meet the driver's parameter limit.
        sql`${users.id} in (select jsonb_array_elements_text(${JSON.stringify(audience.userIds)}::jsonb)::uuid)`
      : // Anonymous users have no e-mail to reach; listing them would only add noise.
        eq(users.isAnonymous, false);
  const rows = await db
    .select({
      userId: users.id,
      displayName: users.displayName,
      primaryEmail: contactChannels.value,
      enabled: notificationPreferences.enabled,
    })
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.categoryId, category.id)),
    )
    .where(and(inTenancy(users, t), filter))
    .orderBy(asc(users.signedUpAt), asc(users.id));
  const recipients = rows.map((r) => ({
    userId: r.userId,
    displayName: r.displayName,
    primaryEmail: r.primaryEmail ?? null,
    optedOut: category.canDisable && r.enabled === false,
  }));
  if (!("userIds" in audience)) return recipients;
  // Every named user must be of this project (and branch): one unknown id and nothing is sent.
  const byId = new Map(recipients.map((r) => [r.userId, r]));
  const ordered: Recipient[] = [];
  const seen = new Set<string>();
  for (const id of audience.userIds) {
    const key = id.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const recipient = byId.get(key);
    if (!recipient) throw new KnownErrors.UserIdDoesNotExist(id);
    ordered.push(recipient);
  }
  return ordered;
}
