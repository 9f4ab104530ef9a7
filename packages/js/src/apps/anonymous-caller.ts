/**
 * Requests that may turn an anonymous user into a real one (sign-up, a code
 * sign-in) carry the app's session and accept an anonymous caller: the
 * server then upgrades that user in place, keeping their id and data. A
 * caller signed in as a regular user, or not at all, is unaffected.
 */
import type { Session } from "../session/session.ts";

export function anonymousCaller(session: Session | undefined): { session?: Session; headers?: Record<string, string> } {
  return session && !session.isSignedOut ? { session, headers: { "x-stack-allow-anonymous-user": "true" } } : {};
}
