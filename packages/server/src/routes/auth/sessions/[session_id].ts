import { KnownErrors, SUCCESS, StatusError, sessionsEndpoints } from "@latchkey/shared";
import { deleteSession } from "../../../domain/sessions/sessions.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(sessionsEndpoints.deleteSession, async ({ auth, params, query, services }) => {
    const userId =
      auth.type === "client" ? resolveUserId(auth, query.user_id ?? "me") : query.user_id ? resolveUserId(auth, query.user_id) : null;
    if (params.session_id === auth.sessionId) {
      throw new KnownErrors.CannotDeleteCurrentSession();
    }
    if (!(await deleteSession(services.db, services.events, auth.project.id, auth.branchId, userId, params.session_id))) {
      throw new StatusError(404, "Session not found.");
    }
    return { body: SUCCESS };
  }),
];
