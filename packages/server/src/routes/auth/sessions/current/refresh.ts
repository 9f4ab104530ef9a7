import { KnownErrors } from "@latchkey/shared";
import { refreshAccessToken } from "../../../../domain/sessions/refresh.ts";
import { stackHeader } from "../../../../http/headers.ts";
import { defineRoute } from "../../../../http/route.ts";
import { mapMaybe } from "../../../../lib/maybe-async.ts";

function accessTokenBody(accessToken: string) {
  return { body: { access_token: accessToken } };
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
