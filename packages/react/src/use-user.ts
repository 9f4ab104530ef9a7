/**
 * The signed-in user as React state, read through the SDK's cache (shared
 * with `app.getUser()` of the same options). The first read suspends (wrap
 * the tree in <Suspense>); later changes — sign-in, sign-out, profile updates
 * — show the previous user until the new one is read, then re-render.
 */
import type { CacheSnapshot, CurrentServerUser, CurrentUser, StackClientApp, StackServerApp } from "@latchkey/js";
import { use } from "react";
import { useStackApp } from "./provider.tsx";
import { useCacheSnapshot, valueOf } from "./use-cache-entry.ts";

export interface UseUserOptions {
  /** When nobody is signed in: "return-null" (default), "redirect" to sign-in, "throw", or create an "anonymous" user. */
  or?: "redirect" | "throw" | "return-null" | "anonymous";
  /** Also return users who are restricted (e.g. e-mail not yet verified). */
  includeRestricted?: boolean;
}

const NEVER = new Promise<never>(() => {});

/**
 * What server rendering (and hydrating its HTML) sees: nobody's tokens are
 * known there, so the page renders signed out and the browser fills the user
 * in after hydration — the same HTML on both sides, no mismatch.
 */
const SERVER_SNAPSHOT: CacheSnapshot<CurrentUser | null> = { status: "ok", value: null };
const serverSnapshot = () => SERVER_SNAPSHOT;

const CLIENT_ONLY =
  "useUser({ or: 'redirect' | 'throw' | 'anonymous' }) runs in the browser only; on the server, the nearest <Suspense> shows its fallback and the browser renders the rest.";

/** Apps on their way to the sign-in page, so many components asking at once redirect once. */
const redirecting = new WeakSet<StackClientApp>();

function redirectToSignInOnce(app: StackClientApp): void {
  if (redirecting.has(app)) return;
  redirecting.add(app);
  void app.redirectToSignIn().finally(() => redirecting.delete(app));
}

/** The signed-in user's type for the app in <StackProvider>: a server (or admin) app reads the server's view. */
export type UserOfApp<App extends StackClientApp> = App extends StackServerApp ? CurrentServerUser : CurrentUser;

/** Name the provider's app type to get its user type, e.g. `useUser<StackServerApp>()`. */
export function useUser<App extends StackClientApp = StackClientApp>(
  options: UseUserOptions & { or: "redirect" | "throw" | "anonymous" },
): UserOfApp<App>;
export function useUser<App extends StackClientApp = StackClientApp>(options?: UseUserOptions): UserOfApp<App> | null;
export function useUser(options: UseUserOptions = {}): CurrentUser | null {
  const app = useStackApp();
  const entry = app._userEntry(options);
  const snapshot = useCacheSnapshot(entry, serverSnapshot);
  if (snapshot === SERVER_SNAPSHOT) {
    // React's way to leave a Suspense boundary to the browser is an error thrown while server rendering.
    if (options.or !== undefined && options.or !== "return-null") throw new Error(CLIENT_ONLY);
    return null;
  }
  const user = valueOf(entry, snapshot);
  if (user === null) {
    if (options.or === "throw") throw new Error("User is not signed in but useUser was called with { or: 'throw' }");
    if (options.or === "redirect") {
      // A suspended render commits no effects, so the redirect starts here
      // (once); nothing further renders while the browser leaves.
      redirectToSignInOnce(app);
      use(NEVER);
    }
  }
  return user;
}
