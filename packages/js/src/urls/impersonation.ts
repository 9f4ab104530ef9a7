/**
 * Impersonation links: an admin tool makes a session for a user and opens
 * the host app's impersonate page with the session's tokens in the URL
 * fragment, which browsers never send to servers (so no server log holds
 * them). The page signs in with them and marks the session as an
 * impersonation with a cookie beside the token cookies: every tab of the app
 * shares the session, so every tab must see the mark. The mark names the
 * impersonation's refresh token (by a short hash), so a later sign-in of
 * anyone else in the app is not marked.
 */
import { REFRESH_COOKIE_MAX_AGE_SECONDS } from "@latchkey/shared/constants";
import { readCookies, writeCookie } from "../session/cookies.ts";

function markCookieName(projectId: string): string {
  return `stack-impersonation-${projectId}`;
}

/** A short hash of a refresh token (32-bit FNV-1a, hex): enough to tell sessions apart, without copying the token into another cookie. */
export function impersonationMarkOf(refreshToken: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < refreshToken.length; i++) {
    hash ^= refreshToken.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** Marks the session of `refreshToken` as an impersonation, for every tab of the app. */
export function markImpersonation(projectId: string, refreshToken: string): void {
  writeCookie(markCookieName(projectId), impersonationMarkOf(refreshToken), REFRESH_COOKIE_MAX_AGE_SECONDS);
}

export function clearImpersonationMark(projectId: string): void {
  writeCookie(markCookieName(projectId), null, 0);
}

/** Whether the session of `refreshToken` is the one an impersonation link signed in. */
export function isImpersonationSession(projectId: string, refreshToken: string | null): boolean {
  if (refreshToken === null) return false;
  return readCookies()[markCookieName(projectId)] === impersonationMarkOf(refreshToken);
}

export interface ImpersonationTokens {
  refreshToken: string;
  accessToken: string | null;
}

/** `pageUrl`: the absolute URL of the host app's impersonate page (its handler path + `/impersonate`). */
export function impersonationLink(pageUrl: string, tokens: ImpersonationTokens): string {
  const fragment = new URLSearchParams({ refresh_token: tokens.refreshToken });
  if (tokens.accessToken) fragment.set("access_token", tokens.accessToken);
  const url = new URL(pageUrl);
  url.hash = fragment.toString();
  return url.toString();
}

/** The tokens of an impersonation link's fragment (`location.hash`), or null when it carries none. */
export function impersonationTokensOf(hash: string): ImpersonationTokens | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const refreshToken = fragment.get("refresh_token");
  if (!refreshToken) return null;
  return { refreshToken, accessToken: fragment.get("access_token") };
}
