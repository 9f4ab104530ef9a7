/**
 * What a refresh token handed to CLI login stands for: a live session of
 * this project and branch and its user, or why not. Looked up by digest
 * across projects, so that a token of another project is named as such
 * (whoever sends a token holds it: its project is no secret to them).
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { sessions } from "../../../db/schema/index.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import { sha256Hex } from "../../../lib/secrets.ts";
import type { SessionRow } from "../../../domain/sessions/sessions.ts";
import { findUser, type UserRecord } from "../../../domain/users/record.ts";

/** `other-project`: a session of another project, or of this project's other branch. */
export type RefreshTokenCheck =
  { kind: "live"; session: SessionRow; user: UserRecord } | { kind: "unknown" | "other-project" | "expired" | "no-user" };

export async function inspectRefreshToken(db: DbOrTx, tenancy: Tenancy, refreshToken: string, now: Date): Promise<RefreshTokenCheck> {
  if (refreshToken.length === 0 || refreshToken.length > 200) return { kind: "unknown" };
  // tenancy: found by its token's digest (unique everywhere), then checked against the tenancy below
  const [session] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.refreshTokenHash, sha256Hex(refreshToken)))
    .limit(1);
  if (!session) return { kind: "unknown" };
  if (session.projectId !== tenancy.projectId || session.branchId !== tenancy.branchId) return { kind: "other-project" };
  if (session.expiresAt !== null && session.expiresAt.getTime() <= now.getTime()) return { kind: "expired" };
  const user = await findUser(db, tenancy.projectId, tenancy.branchId, session.userId);
  return user ? { kind: "live", session, user } : { kind: "no-user" };
}
