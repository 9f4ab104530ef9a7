import { KnownErrors, SUCCESS, sessionsEndpoints } from "@latchkey/shared";
import { deleteSession, findSessionByRefreshToken } from "../../../domain/sessions/sessions.ts";
import { stackHeader } from "../../../http/headers.ts";
import { defineRoute } from "../../../http/route.ts";

/** Sign-out: ends the session of the access token (or of x-stack-refresh-token). */
export default [
  defineRoute(sessionsEndpoints.signOut, async ({ auth, headers, services }) => {
    let sessionId = auth.sessionId;
    const refreshToken = stackHeader(headers, "refresh-token");
    if (!sessionId && refreshToken) {
      sessionId =
        (await findSessionByRefreshToken(services.db, auth.project.id, auth.branchId, refreshToken, services.clock.date()))?.id ?? null;
    }
    if (!sessionId || !(await deleteSession(services.db, services.events, auth.project.id, auth.branchId, null, sessionId))) {
      throw new KnownErrors.RefreshTokenNotFoundOrExpired();
    }
    return { body: SUCCESS };
  }),
];
