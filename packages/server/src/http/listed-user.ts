/**
 * Whose things a listing is for (a user's teams, a user's permissions): a
 * client lists only its own user's and must say so (`user_id=me`); server and
 * admin callers may name any user of the project, or none to list everyone's.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import { findUserCached } from "../domain/users/cached.ts";
import { settle, type Steps } from "../lib/maybe-async.ts";
import type { Services } from "../services.ts";
import type { RequestAuth } from "./auth.ts";
import { resolveUserId } from "./user-target.ts";

/** Steps (lib/maybe-async.ts): the user, or null for every user; a named user must exist. */
export function* listedUserId(
  services: Services,
  auth: RequestAuth,
  userIdOrMe: string | undefined,
  what: "teams" | "permissions",
): Steps<string | null> {
  if (userIdOrMe === undefined) {
    if (auth.type === "client")
      throw new StatusError(403, `A client may only list its own ${what}: pass user_id=me (or your own user id).`);
    return null;
  }
  const userId = resolveUserId(auth, userIdOrMe);
  if (auth.user?.id === userId) return userId;
  if (!(yield* settle(findUserCached(services, auth.project.id, auth.branchId, userId)))) throw new KnownErrors.UserNotFound();
  return userId;
}
