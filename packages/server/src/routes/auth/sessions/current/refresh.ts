import { KnownErrors } from "@latchkey/shared";
import { refreshAccessToken } from "../../../../domain/sessions/refresh.ts";
import { stackHeader } from "../../../../http/headers.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/sessions/current/refresh",
    summary: "Get a new access token with the refresh token in x-stack-refresh-token",
    tags: ["Sessions"],
    access: ["client", "server", "admin"],
    handler: async ({ auth, headers, services, ip }) => {
      const refreshToken = stackHeader(headers, "refresh-token");
      if (!refreshToken) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      const accessToken = await refreshAccessToken(services, auth.project, auth.branchId, refreshToken, ip);
      return { body: { access_token: accessToken } };
    },
  }),
];
