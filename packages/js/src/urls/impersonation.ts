/**
 * Impersonation links: an admin tool makes a session for a user and opens
 * the host app's impersonate page with the session's tokens in the URL
 * fragment, which browsers never send to servers (so no server log holds
 * them). The page signs in with them and marks its tab, in sessionStorage,
 * as an impersonation.
 */

/** The sessionStorage key that marks a tab as signed in by impersonation. */
export const IMPERSONATION_STORAGE_KEY = "latchkey-impersonation";

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
