import { metaEndpoints } from "@latchkey/shared";
import { emptyResponse } from "../../../../http/response.ts";
import { defineRoute } from "../../../../http/route.ts";

/**
 * Anonymous users' tokens name `…/projects-anonymous-users/<id>` as issuer,
 * and an issuer URL cannot carry a query string, so OIDC-style discovery
 * lands here: redirect to the project's JWKS with the anonymous keys.
 */
export default [
  defineRoute(metaEndpoints.anonymousJwks, ({ request }) => {
    // Relative, so it stays right behind a proxy that rewrites the host.
    const path = new URL(request.url).pathname.replace("/projects-anonymous-users/", "/projects/");
    return emptyResponse(307, { location: `${path}?include_anonymous=true` });
  }),
];
