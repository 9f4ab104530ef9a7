/**
 * The dashboard's own Latchkey app: project owners are users of the
 * internal project. The server that serves the dashboard is its API (same
 * origin); it names the internal project's publishable key in a meta tag
 * when it has one.
 */
import { StackClientApp } from "@latchkey/js";

const INTERNAL_PROJECT_ID = "internal";

function meta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

/** Set by the router once it exists, so the SDK's redirects (sign-in, after sign-out) move without a reload. */
let navigate: ((to: string) => void) | null = null;
export function setRedirectNavigator(fn: (to: string) => void) {
  navigate = fn;
}

export const stackApp = new StackClientApp({
  baseUrl: window.location.origin,
  projectId: INTERNAL_PROJECT_ID,
  publishableClientKey: meta("latchkey-publishable-client-key"),
  tokenStore: "cookie",
  urls: { afterSignIn: "/", afterSignUp: "/", afterSignOut: "/handler/sign-in" },
  redirectMethod: {
    navigate: (to) => {
      // Off-site targets (an OAuth provider) leave the dashboard; our own pages go through the router.
      const url = new URL(to, window.location.href);
      // Deferred: the SDK redirects from inside a render (a signed-out visitor's useUser), where a router update may not run.
      if (url.origin === window.location.origin && navigate) {
        const go = navigate;
        queueMicrotask(() => go(url.pathname + url.search + url.hash));
      } else window.location.assign(url.href);
    },
  },
});
