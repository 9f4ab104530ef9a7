/**
 * Resolving "user id or me". A client may only name its own
 * user; server and admin callers may name any user of the project.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import type { RequestAuth } from "./auth.ts";

export function resolveUserId(auth: RequestAuth, userIdOrMe: string): string {
  if (userIdOrMe === "me") {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    return auth.user.id;
  }
  if (auth.type === "client" && auth.user?.id !== userIdOrMe) {
    throw new StatusError(403, "Client access can only act for its own user: use user_id=me or your own user id.");
  }
  return userIdOrMe;
}

/**
 * As resolveUserId, but a client naming another user is answered as if it
 * had no user (CANNOT_GET_OWN_USER_WITHOUT_USER), as clients of the
 * invitation endpoints (listing and accepting by id) expect.
 */
export function resolveOwnUserId(auth: RequestAuth, userIdOrMe: string): string {
  if (auth.type === "client" && userIdOrMe !== "me" && userIdOrMe !== auth.user?.id) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return resolveUserId(auth, userIdOrMe);
}
