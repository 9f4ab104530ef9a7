import { KnownErrors, sessionsEndpoints } from "@latchkey/shared";
import { refreshAccessToken } from "../../../../domain/sessions/refresh.ts";
import { stackHeader } from "../../../../http/headers.ts";
import { defineRoute } from "../../../../http/route.ts";
import { mapMaybe } from "../../../../lib/maybe-async.ts";

/**
 * `{"access_token": …}` written directly: a token is base64url text and dots,
 * which JSON never escapes, and JSON.stringify scanning its ~600 characters
 * for escapes cost as much as the rest of a cached refresh.
 */
function accessTokenBody(accessToken: string): { json: string } {
  return { json: `{"access_token":"${accessToken}"}` };
}

export default [
  // Answers at once when the session and user are cached (lib/maybe-async.ts).
  defineRoute(sessionsEndpoints.refreshAccessToken, ({ auth, headers, services, ip }) => {
    const refreshToken = stackHeader(headers, "refresh-token");
    if (!refreshToken) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
    return mapMaybe(refreshAccessToken(services, auth.project, auth.branchId, refreshToken, ip), accessTokenBody);
  }),
];
