import { oauthEndpoints } from "@latchkey/shared";
import { finishOAuthFlow } from "../../../../domain/auth/oauth/callback.ts";
import { parseCookies, setCookieHeader } from "../../../../http/cookies.ts";
import { emptyResponse } from "../../../../http/response.ts";
import { defineRoute, type EndpointHandlerInput } from "../../../../http/route.ts";

type CallbackInput = Pick<
  EndpointHandlerInput<typeof oauthEndpoints.oauthCallback>,
  "params" | "query" | "services" | "headers" | "country"
>;

async function callback({ params, query, services, headers, country }: CallbackInput) {
  const result = await finishOAuthFlow(services, {
    providerId: params.provider_id,
    query: stringEntries(query),
    cookies: parseCookies(headers.get("cookie")),
    countryCode: country,
  });
  const extra: Record<string, string> = { location: result.location };
  if (result.spentCookie) {
    extra["set-cookie"] = setCookieHeader(result.spentCookie, "", {
      maxAgeSeconds: 0,
      secure: services.config.apiUrl.startsWith("https:"),
      now: services.clock.now(),
    });
  }
  return emptyResponse(result.status, extra);
}

export default [
  defineRoute(oauthEndpoints.oauthCallback, callback),
  defineRoute(oauthEndpoints.oauthCallbackPost, async (input) => {
    const form = stringEntries(input.body ?? {});
    if (form.state === undefined) return callback(input);
    // A provider that posts its answer (Apple's form_post): on to the same callback as a GET, so the
    // browser sends its cookies (a cross-site POST may come without them).
    const url = new URL(input.request.url);
    for (const [key, value] of Object.entries(form)) url.searchParams.set(key, value);
    return emptyResponse(303, { location: `${url.pathname}${url.search}` });
  }),
];

function stringEntries(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
