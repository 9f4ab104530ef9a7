import { KnownErrors, MAX_SESSION_EXPIRATION_MILLIS, uuidSchema, userIdOrMeSchema } from "@latchkey/shared";
import { z } from "zod";
import { signIn } from "../../../domain/sessions/issue.ts";
import { listSessions, sessionView } from "../../../domain/sessions/sessions.ts";
import { findUser } from "../../../domain/users/record.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/auth/sessions",
    summary: "List a user's active sessions, newest first",
    tags: ["Sessions"],
    access: ["client", "server", "admin"],
    query: z.object({ user_id: userIdOrMeSchema }).strict(),
    handler: async ({ auth, query, services }) => {
      const userId = resolveUserId(auth, query.user_id);
      await services.sessionActivity.flush();
      const rows = await listSessions(services.db, auth.project.id, auth.branchId, userId);
      // Impersonation sessions are an administrator's business only.
      const visible = auth.type === "admin" ? rows : rows.filter((s) => !s.isImpersonation);
      return { body: { items: visible.map((s) => sessionView(s, auth.sessionId)), is_paginated: false } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/auth/sessions",
    summary: "Create a session for a user (server)",
    tags: ["Sessions"],
    access: ["server", "admin"],
    body: z
      .object({
        user_id: uuidSchema,
        expires_in_millis: z.number().int().min(0).max(MAX_SESSION_EXPIRATION_MILLIS).optional(),
        is_impersonation: z.boolean().optional(),
      })
      .strict(),
    handler: async ({ auth, body, services }) => {
      const user = await findUser(services.db, auth.project.id, auth.branchId, body.user_id);
      if (!user) throw new KnownErrors.UserIdDoesNotExist(body.user_id);
      const result = await signIn(services, services.db, auth.project, user, {
        ...(body.expires_in_millis !== undefined ? { expiresInMillis: body.expires_in_millis } : {}),
        isImpersonation: body.is_impersonation ?? false,
      });
      return { body: { access_token: result.accessToken, refresh_token: result.refreshToken } };
    },
  }),
];
