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
