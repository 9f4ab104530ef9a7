/**
 * The browser's half of OAuth sign-in and account linking (the server's half
 * is packages/server/src/domain/auth/oauth). Starting, the app keeps a PKCE
 * verifier in a cookie named after the flow's state and sends the browser to
 * the server's authorize endpoint; the provider and the server bring it back
 * to the app's oauth-callback page with `code` and `state`. Only the verifier
 * of that state can turn the code into tokens, so a code that reaches another
 * browser, or a callback this browser never started, signs no one in.
 */
import type { OAuthAuthorizeQuery } from "@latchkey/shared/api/index";
import { OAUTH_STATE_COOKIE_MAX_AGE_SECONDS } from "@latchkey/shared/constants";
import { knownErrorFromJson } from "@latchkey/shared/known-errors/index";
import type { ApiClient } from "../interface/api-client.ts";
import { readCookies, writeCookie } from "../session/cookies.ts";

/** The verifier's cookie is this prefix and the flow's state. */
export const OAUTH_OUTER_COOKIE_PREFIX = "stack-oauth-outer-";

/** Thrown for a callback that failed other than with a coded error (the network, an answer we cannot read). */
export const OAUTH_CALLBACK_FAILED_MESSAGE = "Error signing in during OAuth callback. Please try again.";

export const OAUTH_NEEDS_BROWSER_MESSAGE = "OAuth sign-in needs a browser: signInWithOAuth and linking an account work only in one.";

/** What the query of a callback page carries. */
const CALLBACK_PARAMS = ["code", "state"] as const;
/** What the server adds when it sends an error back to the callback page instead of a code. */
const ERROR_PARAMS = ["error", "error_description", "errorCode", "message", "details", "state", "after_callback_redirect_url"] as const;

export interface OAuthStart {
  provider: string;
  /** `authenticate` signs in or up; `link` connects the provider account to the signed-in user. */
  type: OAuthFlowType;
  /** The app's oauth-callback page, absolute; the code exchange names it again. */
  redirectUrl: string;
  /** Where errors go when the callback page cannot take them, absolute. */
  errorRedirectUrl: string;
  afterCallbackRedirectUrl?: string | undefined;
  /** Scopes to ask the provider for besides the sign-in ones, space-separated. */
  providerScope?: string | undefined;
  /** The signed-in user's access token: required to link; on sign-in, an anonymous user's keeps their account. */
  accessToken: string | null;
}

export type OAuthFlowType = "authenticate" | "link";

/** What the tab remembers of a flow it started, for its callback page: a link's errors lead back to where it began. */
export interface OAuthFlowOfPage {
  type: OAuthFlowType;
  /** Where the flow returns to, same-origin; null: the app's after-sign-in or after-sign-up page. */
  returnTo: string | null;
}

const FLOW_STORAGE_PREFIX = "latchkey-oauth-flow-";

/**
 * Sends the browser to the provider; resolves only if the page does not
 * leave (it always does in a browser). The provider's URL is asked for
 * first (the authorize endpoint's JSON mode), so what the server refuses
 * (an untrusted redirect URL, a provider turned off) is thrown here, to the
 * app, rather than shown as an API answer in the tab; and a link's access
 * token travels in a request, not in a URL the browser keeps.
 */
export async function startOAuthFlow(api: ApiClient, start: OAuthStart): Promise<never> {
  if (typeof window === "undefined") throw new Error(OAUTH_NEEDS_BROWSER_MESSAGE);
  // Loaded when a flow starts: apps that never use OAuth do not carry it.
  const { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } = await import("oauth4webapi");
  const verifier = generateRandomCodeVerifier();
  const state = generateRandomState();
  const query: OAuthAuthorizeQuery = {
    ...api.oauthClient(),
    redirect_uri: start.redirectUrl,
    scope: "legacy",
    state,
    grant_type: "authorization_code",
    code_challenge: await calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    response_type: "code",
    type: start.type,
    error_redirect_url: start.errorRedirectUrl,
    stack_response_mode: "json",
    ...(start.accessToken ? { token: start.accessToken } : {}),
    ...(start.afterCallbackRedirectUrl ? { after_callback_redirect_url: start.afterCallbackRedirectUrl } : {}),
    ...(start.providerScope ? { provider_scope: start.providerScope } : {}),
  };
  const answer = await api.call("GET /auth/oauth/authorize/:provider_id", {
    accessType: "client",
    params: { provider_id: start.provider },
    query,
  });
  const location = typeof answer === "string" ? answer : answer.location;
  // Only the callback page receives the verifier: it never rides along with the app's other requests (or their logs).
  writeCookie(OAUTH_OUTER_COOKIE_PREFIX + state, verifier, OAUTH_STATE_COOKIE_MAX_AGE_SECONDS, new URL(start.redirectUrl).pathname);
  const flow: OAuthFlowOfPage = { type: start.type, returnTo: start.afterCallbackRedirectUrl ?? null };
  sessionStorageOrNull()?.setItem(FLOW_STORAGE_PREFIX + state, JSON.stringify(flow));
  window.location.assign(location);
  return new Promise<never>(() => {});
}

/** The flow the callback in the current URL belongs to, if this tab started it; read without taking the callback. */
export function oauthFlowOfCurrentPage(): OAuthFlowOfPage | null {
  if (typeof window === "undefined") return null;
  const state = new URL(window.location.href).searchParams.get("state");
  const stored = state === null ? null : (sessionStorageOrNull()?.getItem(FLOW_STORAGE_PREFIX + state) ?? null);
  if (stored === null) return null;
  try {
    const flow = JSON.parse(stored) as Partial<OAuthFlowOfPage>;
    return flow.type === "link" || flow.type === "authenticate" ? { type: flow.type, returnTo: flow.returnTo ?? null } : null;
  } catch {
    return null;
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    // Storage turned off by the browser's settings.
    return null;
  }
}

/** A callback of a flow this browser started: its code (or the error the server sent back) and the verifier kept for it. */
export type TakenCallback = ({ code: string; state: string; verifier: string } | { error: Error }) & { flow: OAuthFlowOfPage | null };

/**
 * Takes the callback in the current URL, if it is one of ours: consumes the
 * state's cookie and removes the parameters from the address bar (and so
 * from the history), all synchronously, so that of two calls on one page
 * (a re-render, React's strict mode) exactly one gets it. Returns null, with
 * a warning, for a page without a callback or with one this browser did not
 * start (e.g. reopened from the history).
 */
export function takeOAuthCallback(): TakenCallback | null {
  if (typeof window === "undefined") return null;
  const original = new URL(window.location.href);
  const params = original.searchParams;
  const state = params.get("state");
  const isError = params.has("errorCode");
  for (const name of isError ? (["state"] as const) : CALLBACK_PARAMS) {
    if (!params.get(name)) {
      console.warn(
        `The OAuth callback page was opened without its "${name}" parameter (maybe reopened from the history, or reloaded after signing in): nothing to do.`,
      );
      return null;
    }
  }
  const cookie = OAUTH_OUTER_COOKIE_PREFIX + state;
  const verifier = readCookies()[cookie];
  if (!verifier) {
    console.warn(
      "The OAuth callback's state matches no sign-in started in this browser: its cookie expired (the flow took over an hour), was deleted, or was already used (this page was reloaded), or another OAuth library uses this page. Nothing to do.",
    );
    return null;
  }
  const flow = oauthFlowOfCurrentPage();
  sessionStorageOrNull()?.removeItem(FLOW_STORAGE_PREFIX + state);
  writeCookie(cookie, null, 0, original.pathname);
  const cleaned = new URL(original);
  // Only what the flow added: the app's own parameters of those names stay on a successful callback.
  for (const name of isError ? ERROR_PARAMS : CALLBACK_PARAMS) cleaned.searchParams.delete(name);
  // Replaced rather than navigated: no reload, and the code is gone from the history before anything else runs.
  window.history.replaceState(window.history.state, "", cleaned.toString());
  if (isError) return { error: callbackError(params), flow };
  return { code: params.get("code")!, state: state!, verifier, flow };
}

/** The coded error the server sent back with this browser's state; one this SDK does not know becomes the generic failure. */
function callbackError(params: URLSearchParams): Error {
  let details: unknown;
  try {
    details = JSON.parse(params.get("details") ?? "{}");
  } catch {
    details = undefined;
  }
  const message = params.get("message") ?? params.get("error_description") ?? "";
  return knownErrorFromJson({ code: params.get("errorCode"), error: message, details }) ?? new Error(OAUTH_CALLBACK_FAILED_MESSAGE);
}
