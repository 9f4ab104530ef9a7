import { KnownErrors } from "@latchkey/shared";
import { refreshAccessToken } from "../../../../domain/sessions/refresh.ts";
import { stackHeader } from "../../../../http/headers.ts";
import { jsonTextResponse } from "../../../../http/response.ts";
import { defineRoute } from "../../../../http/route.ts";
import { mapMaybe } from "../../../../lib/maybe-async.ts";

/**
 * `{"access_token": …}` written directly: a token is base64url text and dots,
 * which JSON never escapes, and JSON.stringify scanning its ~600 characters
 * for escapes cost as much as the rest of a cached refresh.
 */
function accessTokenBody(accessToken: string): Response {
  return jsonTextResponse(200, `{"access_token":"${accessToken}"}`);
}

export default [
  defineRoute({
    method: "POST",
    path: "/auth/sessions/current/refresh",
    summary: "Get a new access token with the refresh token in x-stack-refresh-token",
    tags: ["Sessions"],
    access: ["client", "server", "admin"],
    // Answers at once when the session and user are cached (lib/maybe-async.ts).
    handler: ({ auth, headers, services, ip }) => {
      const refreshToken = stackHeader(headers, "refresh-token");
      if (!refreshToken) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      return mapMaybe(refreshAccessToken(services, auth.project, auth.branchId, refreshToken, ip), accessTokenBody);
    },
  }),
];
