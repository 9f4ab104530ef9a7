/** The signed-in user's API keys, shared with `user.listApiKeys()` and read again after the SDK creates, changes or revokes one. */
import type { CurrentUser, UserApiKey } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. Newest first, revoked and expired keys included. */
export function useApiKeys(user: CurrentUser): UserApiKey[] {
  return useCacheEntry(user._apiKeysEntry());
}
