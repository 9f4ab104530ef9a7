import { KnownErrors, uuidSchema, userIdOrMeSchema } from "@latchkey/shared";
import { z } from "zod";
import { deleteSession } from "../../../domain/sessions/sessions.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute({
    method: "DELETE",
    path: "/auth/sessions/:session_id",
    summary: "Revoke a session; its refresh token stops working at once",
    tags: ["Sessions"],
    access: ["client", "server", "admin"],
    params: z.object({ session_id: uuidSchema }),
    query: z.object({ user_id: userIdOrMeSchema.optional() }).strict(),
    handler: async ({ auth, params, query, services }) => {
      const userId =
        auth.type === "client" ? resolveUserId(auth, query.user_id ?? "me") : query.user_id ? resolveUserId(auth, query.user_id) : null;
      if (params.session_id === auth.sessionId) {
        throw new KnownErrors.CannotDeleteCurrentSession();
      }
      if (!(await deleteSession(services.db, services.bus, auth.project.id, auth.branchId, userId, params.session_id))) {
        throw new StatusError(404, "Session not found.");
      }
      return { body: { success: true } };
    },
  }),
];
