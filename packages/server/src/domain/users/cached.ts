/** The signed-in user on the request path, served from the cache when possible. */
import { mapMaybe, type MaybePromise } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import { findUser, type UserRecord } from "./record.ts";

/** At once when cached (see lib/maybe-async.ts); await it anywhere. */
export function findUserCached(services: Services, projectId: string, branchId: string, userId: string): MaybePromise<UserRecord | null> {
  const user = services.caches.load(services.caches.users, userId, () => findUser(services.db, projectId, branchId, userId));
  // The cache is keyed by id alone: make sure the row is this project's.
  return mapMaybe(user, (found) => (found && found.projectId === projectId && found.branchId === branchId ? found : null));
}
