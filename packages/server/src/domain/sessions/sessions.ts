/**
 * Sessions are refresh tokens. The token itself is handed out once; the
 * database keeps its SHA-256 digest, so a leaked table holds no usable token.
 * Deleting the row revokes the session: its refresh token fails at once.
 */
import { DEFAULT_SESSION_EXPIRATION_MILLIS, REFRESH_TOKEN_LENGTH, type SessionJson } from "@latchkey/shared";
import { and, desc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events, type EventTx } from "../../events/transaction.ts";
import { preparedPerDatabase } from "../../db/prepared.ts";
import { sessions, type SessionRow } from "../../db/schema/index.ts";
import { randomCode, sha256Hex } from "../../lib/secrets.ts";
import { inTenancy, preparedInTenancy, type Tenancy } from "../../db/tenancy.ts";

export async function createSession(
  db: DbOrTx,
  input: Tenancy & {
    userId: string;
    expiresInMillis?: number;
    isImpersonation?: boolean;
    /** The client's address (http/client-address.ts), recorded as where the session was last used. */
    ip?: string | null;
    /** The clock's time (lib/clock.ts): the session's start, and where its lifetime counts from. */
    now: Date;
  },
): Promise<{ session: SessionRow; refreshToken: string }> {
  const refreshToken = randomCode(REFRESH_TOKEN_LENGTH);
  const [session] = await db
    .insert(sessions)
    .values({
      projectId: input.projectId,
      branchId: input.branchId,
      userId: input.userId,
      refreshTokenHash: sha256Hex(refreshToken),
      createdAt: input.now,
      lastUsedAt: input.now,
      expiresAt: new Date(input.now.getTime() + (input.expiresInMillis ?? DEFAULT_SESSION_EXPIRATION_MILLIS)),
      isImpersonation: input.isImpersonation ?? false,
      lastUsedIp: input.ip ?? null,
    })
    .returning();
  return { session: session!, refreshToken };
}

/** The live session behind a refresh token of this project, or null. */
export async function findSessionByRefreshToken(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  refreshToken: string,
  now: Date,
): Promise<SessionRow | null> {
  if (refreshToken.length > 200) return null;
  return findSessionByDigest(db, projectId, branchId, sha256Hex(refreshToken), now);
}

const sessionByDigest = preparedPerDatabase((db) =>
  db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.refreshTokenHash, sql.placeholder("digest")),
        preparedInTenancy(sessions),
        or(isNull(sessions.expiresAt), gt(sessions.expiresAt, sql.placeholder("now"))),
      ),
    )
    .limit(1)
    .prepare("session_by_digest"),
);

export async function findSessionByDigest(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  refreshTokenDigest: string,
  now: Date,
): Promise<SessionRow | null> {
  const rows = await sessionByDigest(db).execute({
    digest: refreshTokenDigest,
    projectId,
    branchId,
    now: now.toISOString(),
  });
  return rows[0] ?? null;
}

export async function listSessions(db: DbOrTx, projectId: string, branchId: string, userId: string, now: Date) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        inTenancy(sessions, { projectId, branchId }),
        eq(sessions.userId, userId),
        or(isNull(sessions.expiresAt), gt(sessions.expiresAt, now)),
      ),
    )
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/** Deletes one session of a user; returns whether it existed. */
export async function deleteSession(
  db: Db | EventTx,
  events: Events,
  projectId: string,
  branchId: string,
  userId: string | null,
  sessionId: string,
): Promise<boolean> {
  return events.join(db, async (tx) => {
    const rows = await tx
      .delete(sessions)
      .where(
        and(inTenancy(sessions, { projectId, branchId }), eq(sessions.id, sessionId), userId ? eq(sessions.userId, userId) : undefined),
      )
      .returning({ id: sessions.id, userId: sessions.userId });
    if (rows.length > 0)
      await record(tx, { type: "session.revoked", projectId, branchId, data: { id: sessionId, user_id: rows[0]!.userId } });
    return rows.length > 0;
  });
}

/**
 * Revokes every session of a user but `keepSessionId` (the one asking, when
 * it should stay signed in). Each revocation's event drops that session from
 * every replica's cache when the transaction commits, so the refresh tokens
 * fail at once, cached or not.
 */
export async function revokeUserSessions(tx: EventTx, scope: Tenancy, userId: string, keepSessionId: string | null): Promise<number> {
  const rows = await tx
    .delete(sessions)
    .where(
      and(inTenancy(sessions, scope), eq(sessions.userId, userId), keepSessionId === null ? undefined : ne(sessions.id, keepSessionId)),
    )
    .returning({ id: sessions.id });
  for (const row of rows) {
    await record(tx, {
      type: "session.revoked",
      projectId: scope.projectId,
      branchId: scope.branchId,
      data: { id: row.id, user_id: userId },
    });
  }
  return rows.length;
}

export function sessionView(session: SessionRow, currentSessionId: string | null): SessionJson {
  return {
    id: session.id,
    user_id: session.userId,
    created_at: session.createdAt.getTime(),
    last_used_at: session.lastUsedAt.getTime(),
    is_impersonation: session.isImpersonation,
    is_current_session: session.id === currentSessionId,
    ...(session.lastUsedIp ? { last_used_at_end_user_ip_info: { ip: session.lastUsedIp } } : {}),
  };
}

export type { SessionRow } from "../../db/schema/index.ts";
