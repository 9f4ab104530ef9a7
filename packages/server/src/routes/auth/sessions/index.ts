import { KnownErrors, listOf, sessionsEndpoints } from "@latchkey/shared";
import { signIn } from "../../../domain/sessions/issue.ts";
import { listSessions, sessionView } from "../../../domain/sessions/sessions.ts";
import { findUser } from "../../../domain/users/record.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(sessionsEndpoints.listSessions, async ({ auth, query, services }) => {
    const userId = resolveUserId(auth, query.user_id);
    await services.sessionActivity.flush();
    const rows = await listSessions(services.db, auth.project.id, auth.branchId, userId, services.clock.date());
    // Impersonation sessions are an administrator's business only.
    const visible = auth.type === "admin" ? rows : rows.filter((s) => !s.isImpersonation);
    return { body: listOf(visible.map((s) => sessionView(s, auth.sessionId))) };
  }),
  defineRoute(sessionsEndpoints.createSession, async ({ auth, body, services }) => {
    const user = await findUser(services.db, auth.project.id, auth.branchId, body.user_id);
    if (!user) throw new KnownErrors.UserIdDoesNotExist(body.user_id);
    const result = await signIn(services, services.db, auth.project, user, {
      ...(body.expires_in_millis !== undefined ? { expiresInMillis: body.expires_in_millis } : {}),
      isImpersonation: body.is_impersonation ?? false,
    });
    return { body: { access_token: result.accessToken, refresh_token: result.refreshToken } };
  }),
];
