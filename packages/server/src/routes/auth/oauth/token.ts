/**
 * The OAuth 2.0 token endpoint. Takes form or JSON bodies, and client
 * credentials in the body or as HTTP Basic; the client id is the project id
 * (optionally `<project>#<branch>`), the secret its publishable key.
 */
import { DEFAULT_BRANCH_ID, KnownErrors, PUBLIC_CLIENT_SECRET_SENTINEL, StatusError, authEndpoints } from "@latchkey/shared";
import { checkProjectKey } from "../../../domain/api-keys/key-check.ts";
import { refreshAccessToken } from "../../../domain/sessions/refresh.ts";
import { defineRoute } from "../../../http/route.ts";
import type { Services } from "../../../services.ts";

export default [
  defineRoute(authEndpoints.oauthToken, async ({ body, headers: requestHeaders, services, ip }) => {
    const credentials = clientCredentials(requestHeaders.get("authorization"), body);
    const { project, branchId } = await authenticateClient(services, credentials.clientId, credentials.clientSecret);
    const headers = { pragma: "no-cache" };
    if (body.grant_type === "authorization_code") {
      // Codes come from the provider sign-in flow; an unknown one is refused.
      throw new KnownErrors.InvalidAuthorizationCode();
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

async function authenticateClient(services: Services, clientId: string, clientSecret: string) {
  const [projectId, branchId = DEFAULT_BRANCH_ID] = clientId.split("#") as [string, string | undefined];
  const project = await services.projects.get(projectId);
  if (!project) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  if (branchId !== DEFAULT_BRANCH_ID) throw new KnownErrors.BranchDoesNotExist(branchId);
  if (clientSecret === PUBLIC_CLIENT_SECRET_SENTINEL) {
    if (project.config.require_publishable_client_key) {
      throw new KnownErrors.PublishableClientKeyRequiredForProject(project.id);
    }
  } else if (!(await checkProjectKey(services, project.id, "publishable_client_key", clientSecret))) {
    throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  }
  return { project, branchId };
}
