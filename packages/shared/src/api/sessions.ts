/**
 * Sessions: a user's signed-in sessions, creating one for a user (server),
 * signing out, and refreshing the access token with a session's refresh
 * token (sent in the x-stack-refresh-token header).
 */
import { z } from "zod";
import { MAX_SESSION_EXPIRATION_MILLIS } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

/** Times are milliseconds, without the usual `_millis` suffix. */
export const sessionJson = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  created_at: z.number(),
  last_used_at: z.number(),
  is_impersonation: z.boolean(),
  is_current_session: z.boolean(),
  /** Where the session was last used from; absent when unknown. */
  last_used_at_end_user_ip_info: z.strictObject({ ip: z.string() }).optional(),
});
export type SessionJson = z.infer<typeof sessionJson>;

/** `POST /auth/sessions` (server). */
export const createdSessionJson = z.strictObject({
  access_token: z.string(),
  refresh_token: z.string(),
});
export type CreatedSessionJson = z.infer<typeof createdSessionJson>;

/** `POST /auth/sessions/current/refresh`. */
export const refreshedAccessTokenJson = z.strictObject({ access_token: z.string() });
export type RefreshedAccessTokenJson = z.infer<typeof refreshedAccessTokenJson>;

export const listSessionsQuery = z.strictObject({ user_id: userIdOrMeSchema });

export const createSessionBody = z.strictObject({
  user_id: uuidSchema,
  expires_in_millis: z.number().int().min(0).max(MAX_SESSION_EXPIRATION_MILLIS).optional(),
  is_impersonation: z.boolean().optional(),
});
export type CreateSessionBody = z.input<typeof createSessionBody>;

/** Server access names any user (or none); client access only its own, `me` by default. */
export const deleteSessionQuery = z.strictObject({ user_id: userIdOrMeSchema.optional() });

const ALL = ["client", "server", "admin"] as const;

export const sessionsEndpoints = {
  listSessions: defineEndpoint({
    method: "GET",
    path: "/auth/sessions",
    summary: "List a user's active sessions, newest first",
    tags: ["Sessions"],
    access: ALL,
    query: listSessionsQuery,
    response: listJson(sessionJson),
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
  }),
  createSession: defineEndpoint({
    method: "POST",
    path: "/auth/sessions",
    summary: "Create a session for a user (server)",
    tags: ["Sessions"],
    access: ["server", "admin"],
    body: createSessionBody,
    response: createdSessionJson,
    errors: [KnownErrors.UserIdDoesNotExist],
  }),
  signOut: defineEndpoint({
    method: "DELETE",
    path: "/auth/sessions/current",
    summary: "Sign out of the current session",
    tags: ["Sessions"],
    access: ALL,
    response: successJson,
    errors: [KnownErrors.RefreshTokenNotFoundOrExpired],
  }),
  refreshAccessToken: defineEndpoint({
    method: "POST",
    path: "/auth/sessions/current/refresh",
    summary: "Get a new access token with the refresh token in x-stack-refresh-token",
    tags: ["Sessions"],
    access: ALL,
    response: refreshedAccessTokenJson,
    errors: [KnownErrors.RefreshTokenNotFoundOrExpired],
  }),
  deleteSession: defineEndpoint({
    method: "DELETE",
    path: "/auth/sessions/:session_id",
    summary: "Revoke a session; its refresh token stops working at once",
    tags: ["Sessions"],
    access: ALL,
    params: z.strictObject({ session_id: uuidSchema }),
    query: deleteSessionQuery,
    response: successJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.CannotDeleteCurrentSession],
  }),
};
