/** Signing a user in: a new session (refresh token) and its first access token. */
import { hasTotp } from "../auth/mfa/totp.ts";
import type { Db } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import type { TokenSubject } from "../tokens/access-token.ts";
import { markUserActive } from "../users/activity.ts";
import { restrictedReason, type UserRecord } from "../users/record.ts";
import { createSession } from "./sessions.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export function tokenSubject(user: UserRecord, project: ProjectRow, sessionId: string): TokenSubject {
  return {
    userId: user.id,
    projectId: project.id,
    branchId: user.branchId,
    sessionId,
    displayName: user.displayName,
    primaryEmail: user.primaryEmail,
    primaryEmailVerified: user.primaryEmailVerified,
    selectedTeamId: user.selectedTeamId,
    signedUpAt: user.signedUpAt,
    isAnonymous: user.isAnonymous,
    restrictedReason: restrictedReason(user, project.config.require_email_verification),
    requiresTotpMfa: hasTotp(user),
  };
}

export async function signIn(
  services: Services,
  db: Db | EventTx,
  project: ProjectRow,
  user: UserRecord,
  options: { expiresInMillis?: number; isImpersonation?: boolean; ip?: string | null } = {},
): Promise<{ accessToken: string; refreshToken: string; sessionId: string; userId: string }> {
  const now = services.clock.date();
  const { session, refreshToken } = await services.events.join(db, async (tx) => {
    const created = await createSession(tx, { projectId: project.id, branchId: user.branchId, userId: user.id, ...options, now });
    const data = { id: created.session.id, user_id: user.id };
    await record(tx, { type: "session.created", projectId: project.id, branchId: user.branchId, data });
    return created;
  });
  await markUserActive(db, user.id, now);
  const accessToken = await services.tokens.issue(tokenSubject(user, project, session.id));
  return { accessToken, refreshToken, sessionId: session.id, userId: user.id };
}
