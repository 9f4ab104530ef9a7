/**
 * Where an app sends the browser, and how: only to trusted URLs, the sign-in,
 * sign-up, onboarding and MFA pages carrying the page to come back to (`after_auth_return_to`).
 */
import { sleep } from "../interface/retry.ts";
import { AFTER_AUTH_RETURN_TO, HANDLER_PAGES, type HandlerPage, type HandlerUrls, type RedirectTarget } from "../urls/handler-urls.ts";
import { currentRelativeUrl, returnToFromCurrentUrl, trustedRedirect, type RedirectMethod } from "../urls/redirect.ts";

export interface RedirectToOptions {
  replace?: boolean;
  /** Do not add `after_auth_return_to` (sign-in, sign-up and onboarding pages only). */
  noRedirectBack?: boolean;
  /** The MFA page's `after_auth_return_to` when the current URL carries none (a same-origin URL). */
  returnTo?: string;
}

/** After starting a redirect, give the browser this long to leave before going on. */
const AFTER_REDIRECT_WAIT_MILLIS = 2000;

export class AppRedirects {
  #leaving = false;

  constructor(
    private readonly urls: HandlerUrls,
    private readonly method: RedirectMethod,
  ) {}

  async toUrl(url: string, options: { replace?: boolean } = {}): Promise<void> {
    const target = trustedRedirect(url);
    if (this.method === "none") return;
    if (this.method === "window") {
      // The page is already leaving (e.g. after sign-out, while components
      // that now see no user ask for the sign-in page): the first target wins.
      if (this.#leaving) return;
      this.#leaving = true;
      if (options.replace) window.location.replace(target);
      else window.location.assign(target);
      await sleep(AFTER_REDIRECT_WAIT_MILLIS);
      return;
    }
    this.method.navigate(target);
  }

  toPage(page: HandlerPage | RedirectTarget, options: RedirectToOptions = {}): Promise<void> {
    let url = this.urls[page];
    if ((page === "signIn" || page === "signUp" || page === "onboarding") && !options.noRedirectBack) {
      // Keep a return target already in the URL (e.g. moving from sign-in to
      // sign-up); else come back here, unless "here" is a handler page itself.
      const here = currentRelativeUrl();
      const returnTo = returnToFromCurrentUrl(AFTER_AUTH_RETURN_TO) ?? (here && !this.isHandlerUrl(here) ? here : null);
      if (returnTo) url = withQuery(url, AFTER_AUTH_RETURN_TO, returnTo);
    } else if (page === "mfa") {
      // The second step of a sign-in still ends where the first was to end.
      const returnTo = returnToFromCurrentUrl(AFTER_AUTH_RETURN_TO) ?? (options.returnTo ? trustedRedirect(options.returnTo) : null);
      if (returnTo) url = withQuery(url, AFTER_AUTH_RETURN_TO, returnTo);
    }
    return this.toUrl(url, options);
  }

  /** After signing in or up: back to `after_auth_return_to` when trusted, else the configured target. */
  afterAuth(target: "afterSignIn" | "afterSignUp"): Promise<void> {
    return this.toUrl(returnToFromCurrentUrl(AFTER_AUTH_RETURN_TO) ?? this.urls[target], { replace: true });
  }

  private isHandlerUrl(relative: string): boolean {
    const path = new URL(relative, "http://x").pathname;
    return Object.keys(HANDLER_PAGES).some((page) => new URL(this.urls[page as HandlerPage], "http://x").pathname === path);
  }
}

function withQuery(url: string, key: string, value: string): string {
  const parsed = new URL(url, "http://x");
  parsed.searchParams.set(key, value);
  return url.startsWith("http://") || url.startsWith("https://") ? parsed.toString() : `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
