/** The signed-in user's contact channels, shared with `user.listContactChannels()` and refreshed after the SDK changes them. */
import type { ContactChannel, CurrentUser } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. */
export function useContactChannels(user: CurrentUser): ContactChannel[] {
  return useCacheEntry(user._contactChannelsEntry());
}
