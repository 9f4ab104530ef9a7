import { oauthEndpoints } from "@latchkey/shared";
import { authorizeWithProvider } from "../../../../domain/auth/oauth/authorize.ts";
import { OAUTH_FLOW_LIFETIME_MILLIS, OAUTH_INNER_COOKIE_PREFIX } from "../../../../domain/auth/oauth/flows.ts";
import { setCookieHeader } from "../../../../http/cookies.ts";
import { emptyResponse } from "../../../../http/response.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(oauthEndpoints.oauthAuthorize, async ({ params, query, services, ip }) => {
    const result = await authorizeWithProvider(services, params.provider_id, query, ip);
    if (result.responseMode === "json") return { status: 200, body: { location: result.location } };
    // Ties the flow to this browser: the callback refuses a flow whose cookie the browser does not bring.
    const cookie = setCookieHeader(OAUTH_INNER_COOKIE_PREFIX + result.innerState, "true", {
      maxAgeSeconds: OAUTH_FLOW_LIFETIME_MILLIS / 1000,
      secure: services.config.apiUrl.startsWith("https:"),
      now: services.clock.now(),
    });
    return emptyResponse(307, { location: result.location, "set-cookie": cookie });
  }),
];
