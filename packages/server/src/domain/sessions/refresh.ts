/**
 * Exchanging a refresh token for a fresh access token. One statement finds
 * the live session and marks it used, so concurrent refreshes of one token
 * all succeed (refresh tokens are not rotated) and a deleted session fails at
 * once.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { sessions } from "../../db/schema/index.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import type { Services } from "../../services.ts";
import type { ProjectRow } from "../projects/projects.ts";
import { markUserActive } from "../users/activity.ts";
import { findUser } from "../users/record.ts";
import { tokenSubject } from "./issue.ts";

export async function refreshAccessToken(
  services: Services,
  project: ProjectRow,
  branchId: string,
  refreshToken: string,
  ip: string | null,
): Promise<string> {
  if (refreshToken.length === 0 || refreshToken.length > 200) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  const now = new Date();
  const [session] = await services.db
    .update(sessions)
    .set({ lastUsedAt: now, ...(ip ? { lastUsedIp: ip } : {}) })
    .where(
      and(
        eq(sessions.refreshTokenHash, sha256Hex(refreshToken)),
        eq(sessions.projectId, project.id),
        eq(sessions.branchId, branchId),
        or(isNull(sessions.expiresAt), gt(sessions.expiresAt, now)),
      ),
    )
    .returning({ id: sessions.id, userId: sessions.userId });
  if (!session) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  const [user] = await Promise.all([
    findUser(services.db, project.id, branchId, session.userId),
    markUserActive(services.db, session.userId, now),
  ]);
  if (!user) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  return services.tokens.issue(tokenSubject(user, project, session.id));
}
