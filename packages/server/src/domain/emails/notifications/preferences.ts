/**
 * Notification preferences (see @latchkey/shared api/emails.ts): per
 * user, whether mail of a category may be sent to them. A user without a row
 * for a category has its default (enabled); transactional mail cannot be
 * turned off.
 */
import { NOTIFICATION_CATEGORIES, StatusError, type NotificationCategoryName, type NotificationPreferenceJson } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { notificationPreferences } from "../../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { requireUser } from "../../contact-channels/channels.ts";

export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** The category with this name (as the API spells it), or null. */
export function findCategoryByName(name: string): NotificationCategory | null {
  return NOTIFICATION_CATEGORIES.find((c) => c.name === name) ?? null;
}

export function categoryByName(name: NotificationCategoryName): NotificationCategory {
  return NOTIFICATION_CATEGORIES.find((c) => c.name === name)!;
}

/** The category with this id, or 404 plain text. */
export function requireCategory(id: string): NotificationCategory {
  const category = NOTIFICATION_CATEGORIES.find((c) => c.id === id.toLowerCase());
  if (!category) {
    const known = NOTIFICATION_CATEGORIES.map((c) => `${c.id} (${c.name})`).join(", ");
    throw new StatusError(404, `Notification category ${JSON.stringify(id)} not found. The categories are: ${known}.`);
  }
  return category;
}

function view(category: NotificationCategory, stored: boolean | undefined): NotificationPreferenceJson {
  return {
    can_disable: category.canDisable,
    // A category that cannot be turned off is always on, whatever was stored.
    enabled: category.canDisable ? (stored ?? true) : true,
    notification_category_id: category.id,
    notification_category_name: category.name,
  };
}

/** Every category with the user's choice, in catalogue order. */
export async function listPreferences(db: DbOrTx, t: Tenancy, userId: string): Promise<NotificationPreferenceJson[]> {
  const rows = await db
    .select({ categoryId: notificationPreferences.categoryId, enabled: notificationPreferences.enabled })
    .from(notificationPreferences)
    .where(and(inTenancy(notificationPreferences, t), eq(notificationPreferences.userId, userId)));
  const stored = new Map(rows.map((r) => [r.categoryId, r.enabled]));
  return NOTIFICATION_CATEGORIES.map((c) => view(c, stored.get(c.id)));
}

/**
 * Records the user's choice. USER_ID_DOES_NOT_EXIST unless the user is in
 * this tenancy; their row stays locked until the choice is written, so a
 * user deleted meanwhile is reported, not a foreign-key failure.
 */
export function setPreference(
  db: Db,
  t: Tenancy,
  userId: string,
  category: NotificationCategory,
  enabled: boolean,
): Promise<NotificationPreferenceJson> {
  return db.transaction(async (tx) => {
    await requireUser(tx, t, userId, true);
    if (!enabled && !category.canDisable) {
      throw new StatusError(
        400,
        `${category.name} e-mails cannot be turned off: they carry messages the user needs, such as sign-in codes and password resets.`,
      );
    }
    await tx
      .insert(notificationPreferences)
      .values({ projectId: t.projectId, branchId: t.branchId, userId, categoryId: category.id, enabled })
      .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.categoryId], set: { enabled } });
    return view(category, enabled);
  });
}
