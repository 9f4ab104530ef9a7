/**
 * Whether the session an access token belongs to still stands. A token is
 * valid until it expires, but its session may end before that (signed out,
 * revoked, its user or project deleted, its lifetime over): from then on the
 * token is refused, on every replica as soon as it hears of the end (the
 * session's cache event, cache/bus.ts). Asked by every request that carries
 * a token, so it is answered from the cache at once, without a promise or an
 * allocation; ended sessions are cached too (caches.ts `liveSessions`).
 */
import { and, eq, sql } from "drizzle-orm";
import { ENDED_SESSION, type SessionLiveness } from "../../cache/caches.ts";
import { preparedPerDatabase } from "../../db/prepared.ts";
import { sessions } from "../../db/schema/index.ts";
import { preparedInTenancy } from "../../db/tenancy.ts";
import type { MaybePromise } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import type { AccessTokenClaims } from "../tokens/access-token.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sessionById = preparedPerDatabase((db) =>
  db
    .select({ projectId: sessions.projectId, branchId: sessions.branchId, userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.id, sql.placeholder("id")), preparedInTenancy(sessions)))
    .limit(1)
    .prepare("session_liveness"),
);

/** True while the token's session stands; at once when its liveness is cached (lib/maybe-async.ts). */
export function isSessionLive(services: Services, claims: AccessTokenClaims): MaybePromise<boolean> {
  const cached = services.caches.liveSessions.get(claims.refresh_token_id);
  if (cached !== undefined) return stands(cached, claims, services.clock.now());
  return loadLiveness(services, claims);
}

async function loadLiveness(services: Services, claims: AccessTokenClaims): Promise<boolean> {
  const id = claims.refresh_token_id;
  // Not a session id this server could have issued: nothing to look up (and PostgreSQL would refuse it as a uuid).
  if (typeof id !== "string" || !UUID.test(id)) return false;
  const { caches } = services;
  const liveness = await caches.loadFinal(
    caches.liveSessions,
    id,
    async () => {
      caches.sessionLivenessReads++;
      const [row] = await sessionById(services.db).execute({ id, projectId: claims.project_id, branchId: claims.branch_id });
      if (!row) return null;
      const expiresAtMillis = row.expiresAt === null ? null : row.expiresAt.getTime();
      return { ended: false, projectId: row.projectId, branchId: row.branchId, userId: row.userId, expiresAtMillis } as const;
    },
    ENDED_SESSION,
  );
  return stands(liveness, claims, services.clock.now());
}

function stands(session: SessionLiveness, claims: AccessTokenClaims, nowMillis: number): boolean {
  return (
    !session.ended &&
    session.userId === claims.sub &&
    session.projectId === claims.project_id &&
    session.branchId === claims.branch_id &&
    (session.expiresAtMillis === null || session.expiresAtMillis > nowMillis)
  );
}
