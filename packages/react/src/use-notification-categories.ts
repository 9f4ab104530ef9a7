/** The signed-in user's notification choices, shared with `user.listNotificationCategories()` and refreshed after changes. */
import type { CurrentUser, NotificationCategory } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. */
export function useNotificationCategories(user: CurrentUser): NotificationCategory[] {
  return useCacheEntry(user._notificationCategoriesEntry());
}
