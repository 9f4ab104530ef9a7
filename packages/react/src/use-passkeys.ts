/** The signed-in user's passkeys, shared with `user.listPasskeys()` and refreshed after the SDK changes them. */
import type { CurrentUser, Passkey } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. */
export function usePasskeys(user: CurrentUser): Passkey[] {
  return useCacheEntry(user._passkeysEntry());
}
