/**
 * Exchanging a refresh token for a fresh access token. The session is found
 * by the token's digest (cached; a revoked session is dropped from every
 * replica's cache when the revocation commits), the user is read through the
 * user cache, and the last-used time is written behind. Refresh tokens are
 * not rotated, so concurrent refreshes of one token all succeed.
 */
import { KnownErrors } from "@latchkey/shared";
import { run, settle, type MaybePromise, type Steps } from "../../lib/maybe-async.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import type { Services } from "../../services.ts";
import { markUserActive } from "../users/activity.ts";
import { findUserCached } from "../users/cached.ts";
import { tokenSubject } from "./issue.ts";
import { findSessionByDigest } from "./sessions.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export function refreshAccessToken(
  services: Services,
  project: ProjectRow,
  branchId: string,
  refreshToken: string,
  ip: string | null,
): MaybePromise<string> {
  return run(refreshSteps(services, project, branchId, refreshToken, ip));
}

/** Steps (lib/maybe-async.ts): with the session and user cached, a refresh waits for nothing. */
function* refreshSteps(services: Services, project: ProjectRow, branchId: string, refreshToken: string, ip: string | null): Steps<string> {
  if (refreshToken.length === 0 || refreshToken.length > 200) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  const now = services.clock.date();
  const digest = sha256Hex(refreshToken);
  const session = yield* settle(
    services.caches.load(services.caches.sessions, digest, () => findSessionByDigest(services.db, project.id, branchId, digest, now)),
  );
  if (
    !session ||
    session.projectId !== project.id ||
    session.branchId !== branchId ||
    (session.expiresAt !== null && session.expiresAt.getTime() <= now.getTime())
  ) {
    throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  }
  const user = yield* settle(findUserCached(services, project.id, branchId, session.userId));
  if (!user) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  services.sessionActivity.touch(session.id, ip, now);
  yield* settle(markUserActive(services.db, user.id, now));
  return services.tokens.issue(tokenSubject(user, project, session.id));
}
