/**
 * The OAuth 2.0 token endpoint. Takes form or JSON bodies, and client
 * credentials in the body or as HTTP Basic; the client id is the project id
 * (optionally `<project>#<branch>`), the secret its publishable key.
 */
import { KnownErrors, StatusError, authEndpoints } from "@latchkey/shared";
import { exchangeAuthorizationCode } from "../../../domain/auth/oauth/authorization-code.ts";
import { authenticateOAuthClient } from "../../../domain/auth/oauth/oauth-client.ts";
import { refreshAccessToken } from "../../../domain/sessions/refresh.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.oauthToken, async ({ body, headers: requestHeaders, services, ip }) => {
    const credentials = clientCredentials(requestHeaders.get("authorization"), body);
    const { project, branchId } = await authenticateOAuthClient(services, credentials.clientId, credentials.clientSecret);
    const headers = { pragma: "no-cache" };
    if (body.grant_type === "authorization_code") {
      // Codes come from the provider sign-in flow (routes/auth/oauth/callback).
      if (!body.code) throw new KnownErrors.InvalidAuthorizationCode();
      const signedIn = await services.metrics.signIn(
        "oauth",
        exchangeAuthorizationCode(services, project, branchId, {
          code: body.code,
          redirectUri: body.redirect_uri,
          codeVerifier: body.code_verifier,
          ip,
        }),
      );
      return {
        headers,
        body: {
          access_token: signedIn.accessToken,
          afterCallbackRedirectUrl: signedIn.afterCallbackRedirectUrl,
          after_callback_redirect_url: signedIn.afterCallbackRedirectUrl,
          expires_in: Math.round(services.tokens.lifetimeMillis / 1000),
          is_new_user: signedIn.isNewUser,
          newUser: signedIn.isNewUser,
          refresh_token: signedIn.refreshToken,
          scope: "legacy" as const,
          token_type: "Bearer" as const,
        },
      };
    }
    if (!body.refresh_token) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
    const accessToken = await refreshAccessToken(services, project, branchId, body.refresh_token, ip);
    return {
      headers,
      body: {
        access_token: accessToken,
        afterCallbackRedirectUrl: null,
        after_callback_redirect_url: null,
        expires_in: Math.round(services.tokens.lifetimeMillis / 1000),
        scope: "legacy" as const,
        token_type: "Bearer" as const,
      },
    };
  }),
];

function clientCredentials(
  authorization: string | null,
  body: { client_id?: string | undefined; client_secret?: string | undefined },
): { clientId: string; clientSecret: string } {
  if (authorization) {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization);
    const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new StatusError(400, "The Authorization header must be 'Basic <base64 of client_id:client_secret>'.");
    const clientId = decodeURIComponent(decoded.slice(0, colon));
    const clientSecret = decodeURIComponent(decoded.slice(colon + 1));
    if ((body.client_id && body.client_id !== clientId) || (body.client_secret && body.client_secret !== clientSecret)) {
      throw new StatusError(400, "The client credentials in the Authorization header and in the body differ.");
    }
    return { clientId, clientSecret };
  }
  if (!body.client_id || body.client_secret === undefined) throw new KnownErrors.InvalidOAuthClientIdOrSecret(body.client_id ?? null);
  return { clientId: body.client_id, clientSecret: body.client_secret };
}
