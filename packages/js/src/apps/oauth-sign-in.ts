/**
 * OAuth sign-in and account linking as the apps offer them: which URLs and
 * scopes a flow starts with, and the code exchange on the callback page
 * (the browser's part of the flow itself is in oauth-flow.ts). The app keeps
 * the tokens and redirects.
 */
import { KnownErrors, isKnownError } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { scopeString } from "../models/connected-account.ts";
import { decodeAccessToken } from "../session/access-token.ts";
import type { Session } from "../session/session.ts";
import { AFTER_AUTH_RETURN_TO, type HandlerUrls } from "../urls/handler-urls.ts";
import { returnToFromCurrentUrl, trustedRedirect } from "../urls/redirect.ts";
import { catchMfaRequired } from "./credentials.ts";
import { OAUTH_CALLBACK_FAILED_MESSAGE, OAUTH_NEEDS_BROWSER_MESSAGE, startOAuthFlow, takeOAuthCallback } from "./oauth-flow.ts";

/** Shown when the second factor was refused during the callback (the user starts over). */
export const OAUTH_INVALID_TOTP_MESSAGE = "Invalid TOTP code. Please try signing in again.";

/** Extra scopes the app asks each provider for whenever a user signs in with it (e.g. `{ github: ["repo"] }`). */
export type OAuthScopesOnSignIn = Partial<Record<string, readonly string[]>>;

export interface OAuthContext {
  api: ApiClient;
  accessType: AccessType;
  /** The app's session: an anonymous user on it keeps their account when signing up; a link names its user. */
  session: Session;
  urls: Readonly<HandlerUrls>;
  scopesOnSignIn: OAuthScopesOnSignIn;
  absoluteUrl(relative: string): string | undefined;
  /** Sends the browser to the MFA page, which returns to `returnTo` (same-origin) once the second factor is in. */
  toMfaPage(returnTo: string | null): Promise<void>;
}

export interface OAuthSignInOptions {
  /** Where to go once signed in (same origin), instead of the after-sign-in or after-sign-up page. */
  returnTo?: string;
}

/** Sends the browser to the provider's sign-in; the app's oauth-callback page finishes with `callOAuthCallback`. */
export async function signInWithOAuth(ctx: OAuthContext, provider: string, options: OAuthSignInOptions = {}): Promise<never> {
  // Coming from a sign-in page that carries where to return, the callback still returns there.
  const returnTo = options.returnTo ?? returnToFromCurrentUrl(AFTER_AUTH_RETURN_TO);
  return startOAuthFlow(ctx.api, {
    provider,
    type: "authenticate",
    ...callbackUrls(ctx),
    afterCallbackRedirectUrl: returnTo === null ? undefined : returnUrl(ctx, returnTo),
    providerScope: joinScopes(ctx.scopesOnSignIn[provider] ?? []),
    accessToken: await anonymousAccessToken(ctx.session),
  });
}

/**
 * Connects a provider account to the signed-in user (or asks the provider
 * for more scopes on one already connected): through the provider and back
 * to the current page, or `returnTo`.
 */
export async function linkOAuthAccount(
  ctx: OAuthContext,
  provider: string,
  options: { scopes?: readonly string[]; returnTo?: string } = {},
): Promise<never> {
  const accessToken = await ctx.session.getAccessToken();
  if (accessToken === null) throw new Error("Connecting an account needs a signed-in user.");
  const here = typeof window === "undefined" ? undefined : window.location.href;
  return startOAuthFlow(ctx.api, {
    provider,
    type: "link",
    ...callbackUrls(ctx),
    afterCallbackRedirectUrl: options.returnTo === undefined ? here : returnUrl(ctx, options.returnTo),
    providerScope: joinScopes([...(options.scopes ?? []), ...(ctx.scopesOnSignIn[provider] ?? [])]),
    accessToken,
  });
}

/** A finished callback: a sign-in's tokens, or a link that is done (the session stays as it was). */
export type OAuthCallbackOutcome =
  | {
      kind: "signed-in";
      accessToken: string;
      refreshToken: string;
      isNewUser: boolean;
      /** Where the flow asked to go afterwards, if anywhere. */
      afterCallbackRedirectUrl: string | null;
    }
  | { kind: "linked"; afterCallbackRedirectUrl: string | null };

/**
 * Finishes the flow of the current page: null when there is nothing of ours
 * to finish (warned); throws the coded error the server sent back or
 * answered, or OAUTH_CALLBACK_FAILED_MESSAGE. A sign-in's code is exchanged
 * for the user's tokens; a user with two-factor is sent to the MFA page
 * (and the call throws, as any first step of a sign-in does; see
 * credentials.ts), which then still ends where the flow was to end. A link
 * was made by the server before it sent the code, so the code is left
 * unused: its exchange would only give the signed-in user a second session
 * (or ask them for their second factor again).
 */
export async function finishOAuthCallback(ctx: OAuthContext): Promise<OAuthCallbackOutcome | null> {
  const taken = takeOAuthCallback();
  if (taken === null) return null;
  if ("error" in taken) throw taken.error;
  const returnTo = taken.flow?.returnTo ?? null;
  if (taken.flow?.type === "link") return { kind: "linked", afterCallbackRedirectUrl: returnTo };
  try {
    const body = await catchMfaRequired({ toMfaPage: () => ctx.toMfaPage(returnTo) }, () =>
      ctx.api.call("POST /auth/oauth/token", {
        accessType: ctx.accessType,
        body: {
          grant_type: "authorization_code",
          ...ctx.api.oauthClient(),
          code: taken.code,
          code_verifier: taken.verifier,
          redirect_uri: callbackUrls(ctx).redirectUrl,
        },
      }),
    );
    if (!("refresh_token" in body)) throw new Error("The token endpoint answered the code without a refresh token.");
    return {
      kind: "signed-in",
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      isNewUser: body.is_new_user,
      afterCallbackRedirectUrl: body.after_callback_redirect_url,
    };
  } catch (error) {
    if (error instanceof KnownErrors.InvalidTotpCode && typeof alert === "function") alert(OAUTH_INVALID_TOTP_MESSAGE);
    if (isKnownError(error)) throw error;
    throw new Error(OAUTH_CALLBACK_FAILED_MESSAGE, { cause: error });
  }
}

/**
 * The access token of an anonymous user signed in on `session`, who keeps
 * their account by signing up with the provider; else null: nobody else's
 * token has a use there, and it is not sent for nothing.
 */
async function anonymousAccessToken(session: Session): Promise<string | null> {
  const token = session.isSignedOut ? null : await session.getAccessToken();
  return token !== null && decodeAccessToken(token)?.is_anonymous === true ? token : null;
}

function callbackUrls(ctx: OAuthContext): { redirectUrl: string; errorRedirectUrl: string } {
  return { redirectUrl: absolute(ctx, ctx.urls.oauthCallback), errorRedirectUrl: absolute(ctx, ctx.urls.error) };
}

function absolute(ctx: OAuthContext, url: string): string {
  const resolved = ctx.absoluteUrl(url);
  if (resolved === undefined) throw new Error(OAUTH_NEEDS_BROWSER_MESSAGE);
  return resolved;
}

/**
 * Where to go after the callback, absolute. Checked now, not after the
 * sign-in: the callback page goes only to its own origin (the server would
 * accept any trusted domain), so another origin fails before anything happens.
 */
function returnUrl(ctx: OAuthContext, url: string): string {
  return absolute(ctx, trustedRedirect(url));
}

function joinScopes(scopes: readonly string[]): string | undefined {
  return scopeString(scopes) || undefined;
}
