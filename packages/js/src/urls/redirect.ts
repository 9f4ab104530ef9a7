/**
 * Where the SDK may send the browser. A redirect goes only to a trusted URL:
 * a relative one, or one on the page's own origin.
 */
export type RedirectMethod = "window" | "none" | { navigate: (to: string) => void };

export class UntrustedRedirectError extends Error {
  constructor(readonly url: string) {
    super(
      `The redirect URL ${JSON.stringify(url)} is not trusted: redirect URLs should be relative (like "/dashboard"), or on this page's own origin.`,
    );
    this.name = "UntrustedRedirectError";
  }
}

/** Stands in for the page's origin outside a browser, where only relative targets are trusted. */
const NO_ORIGIN = "http://no-origin.invalid";

/**
 * The URL as a same-origin relative reference (path, query, hash), or throws
 * UntrustedRedirectError. The URL is parsed the way a browser will parse it
 * (tabs and newlines dropped, backslashes as slashes), so nothing that
 * merely looks relative can lead to another host.
 */
export function trustedRedirect(url: string, currentOrigin: string | null = currentLocationOrigin()): string {
  const origin = currentOrigin ?? NO_ORIGIN;
  let parsed: URL;
  try {
    // Relative to the current page, as the browser would resolve it.
    const base = currentOrigin !== null && currentOrigin === currentLocationOrigin() ? window.location.href : `${origin}/`;
    parsed = new URL(url, base);
  } catch {
    throw new UntrustedRedirectError(url);
  }
  const absolute = /^\s*[a-z][a-z0-9+.-]*:/i.test(url);
  if (parsed.origin !== new URL(origin).origin || (absolute && currentOrigin === null)) throw new UntrustedRedirectError(url);
  // A path starting with two slashes would name a host when used as a link.
  const path = parsed.pathname.replace(/^[/\\]+/, "/");
  return `${path}${parsed.search}${parsed.hash}`;
}

export function currentLocationOrigin(): string | null {
  return typeof window !== "undefined" && window.location ? window.location.origin : null;
}

/** The current page as a relative reference, for `after_auth_return_to`. */
export function currentRelativeUrl(): string | null {
  if (typeof window === "undefined" || !window.location) return null;
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** `after_auth_return_to` of the current page, when it is a trusted target. */
export function returnToFromCurrentUrl(parameter: string): string | null {
  if (typeof window === "undefined" || !window.location) return null;
  const value = new URL(window.location.href).searchParams.get(parameter);
  if (!value) return null;
  try {
    return trustedRedirect(value);
  } catch {
    return null;
  }
}
