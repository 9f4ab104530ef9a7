/** The signed-in user on the request path, served from the cache when possible. */
import type { Services } from "../../services.ts";
import { findUser, type UserRecord } from "./record.ts";

export async function findUserCached(
  services: Services,
  projectId: string,
  branchId: string,
  userId: string,
): Promise<UserRecord | null> {
  const user = await services.caches.load(services.caches.users, userId, () =>
    findUser(services.db, projectId, branchId, userId),
  );
  // The cache is keyed by id alone: make sure the row is this project's.
  return user && user.projectId === projectId && user.branchId === branchId ? user : null;
}
