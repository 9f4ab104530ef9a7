/** The signed-in user's accounts at OAuth providers, shared with `user.listOAuthProviders()` and refreshed after the SDK changes them. */
import type { CurrentUser, OAuthProvider } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. */
export function useOAuthProviders(user: CurrentUser): OAuthProvider[] {
  return useCacheEntry(user._oauthProvidersEntry());
}
