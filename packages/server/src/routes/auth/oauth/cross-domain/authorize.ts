import { oauthEndpoints } from "@latchkey/shared";
import { authorizeCrossDomain } from "../../../../domain/auth/oauth/cross-domain.ts";
import { stackHeader } from "../../../../http/headers.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(oauthEndpoints.oauthCrossDomainAuthorize, async ({ auth, body, headers, services }) => {
    const redirectUrl = await authorizeCrossDomain(services, {
      project: auth.project,
      branchId: auth.branchId,
      user: auth.user,
      sessionId: auth.sessionId,
      refreshToken: stackHeader(headers, "refresh-token"),
      redirectUri: body.redirect_uri,
      state: body.state,
      codeChallenge: body.code_challenge,
      afterCallbackRedirectUrl: body.after_callback_redirect_url,
    });
    return { body: { redirect_url: redirectUrl } };
  }),
];
