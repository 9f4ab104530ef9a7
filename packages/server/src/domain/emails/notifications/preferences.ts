/**
 * Notification preferences (SPEC §3 "Notification category", WIRE §2.7): per
 * user, whether mail of a category may be sent to them. A user without a row
 * for a category has its default (enabled); transactional mail cannot be
 * turned off.
 */
import { NOTIFICATION_CATEGORIES } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { notificationPreferences } from "../../../db/schema/index.ts";
import { StatusError } from "../../../http/errors.ts";
import type { Tenancy } from "../../contact-channels/channels.ts";

export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];
export type NotificationCategoryName = NotificationCategory["name"];

export const NOTIFICATION_CATEGORY_NAMES = NOTIFICATION_CATEGORIES.map((c) => c.name) as [NotificationCategoryName, ...NotificationCategoryName[]];

export interface NotificationPreferenceJson {
  can_disable: boolean;
  enabled: boolean;
  notification_category_id: string;
  notification_category_name: NotificationCategoryName;
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
    .where(
      and(
        eq(notificationPreferences.projectId, t.projectId),
        eq(notificationPreferences.branchId, t.branchId),
        eq(notificationPreferences.userId, userId),
      ),
    );
  const stored = new Map(rows.map((r) => [r.categoryId, r.enabled]));
  return NOTIFICATION_CATEGORIES.map((c) => view(c, stored.get(c.id)));
}

/**
 * Records the user's choice (the caller has checked that the user exists in
 * this tenancy, and holds their row lock when it must not vanish meanwhile).
 */
export async function setPreference(
  db: DbOrTx,
  t: Tenancy,
  userId: string,
  category: NotificationCategory,
  enabled: boolean,
): Promise<NotificationPreferenceJson> {
  if (!enabled && !category.canDisable) {
    throw new StatusError(400, `${category.name} e-mails cannot be turned off: they carry messages the user needs, such as sign-in codes and password resets.`);
  }
  await db
    .insert(notificationPreferences)
    .values({ projectId: t.projectId, branchId: t.branchId, userId, categoryId: category.id, enabled })
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.categoryId], set: { enabled } });
  return view(category, enabled);
}
