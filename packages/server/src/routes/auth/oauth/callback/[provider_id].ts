import { KnownError, oauthEndpoints, StatusError } from "@latchkey/shared";
import { finishOAuthFlow } from "../../../../domain/auth/oauth/callback.ts";
import { OAUTH_INNER_COOKIE_PREFIX } from "../../../../domain/auth/oauth/flows.ts";
import { parseCookies, setCookieHeader } from "../../../../http/cookies.ts";
import { knownErrorResponse } from "../../../../http/errors.ts";
import { emptyResponse, textResponse } from "../../../../http/response.ts";
import type { Services } from "../../../../services.ts";
import { defineRoute, type EndpointHandlerInput } from "../../../../http/route.ts";

type CallbackInput = Pick<
  EndpointHandlerInput<typeof oauthEndpoints.oauthCallback>,
  "params" | "query" | "services" | "headers" | "country"
>;

async function callback({ params, query, services, headers, country }: CallbackInput) {
  let result;
  try {
    result = await finishOAuthFlow(services, {
      providerId: params.provider_id,
      query: stringEntries(query),
      cookies: parseCookies(headers.get("cookie")),
      countryCode: country,
    });
  } catch (error) {
    // A refused callback forgets the flow's cookie too (named by the state it came back with), so a browser
    // that retries the sign-in does not keep a dead one.
    const refusal = badRequest(error);
    if (refusal === null) throw error;
    refusal.headers.append("set-cookie", deletedCookie(services, OAUTH_INNER_COOKIE_PREFIX + (query.state ?? "")));
    return refusal;
  }
  const extra: Record<string, string> = { location: result.location };
  if (result.spentCookie) extra["set-cookie"] = deletedCookie(services, result.spentCookie);
  return emptyResponse(result.status, extra);
}

function deletedCookie(services: Pick<Services, "config" | "clock">, name: string): string {
  return setCookieHeader(name, "", { maxAgeSeconds: 0, secure: services.config.apiUrl.startsWith("https:"), now: services.clock.now() });
}

/** The answer to a 400 refusal, or null for any other failure (left to the pipeline). */
function badRequest(error: unknown): Response | null {
  if (error instanceof KnownError && error.statusCode === 400) return knownErrorResponse(error);
  if (error instanceof StatusError && error.status === 400) return textResponse(400, error.message);
  return null;
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
