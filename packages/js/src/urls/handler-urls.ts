/**
 * Handler pages and redirect targets: pages live under a handler
 * base (default `/handler`); home defaults to `/`; after sign-in and sign-out
 * default to home; after sign-up defaults to the after-sign-in target.
 */
export const HANDLER_PAGES = {
  signIn: "sign-in",
  signUp: "sign-up",
  signOut: "sign-out",
  emailVerification: "email-verification",
  passwordReset: "password-reset",
  forgotPassword: "forgot-password",
  oauthCallback: "oauth-callback",
  magicLinkCallback: "magic-link-callback",
  accountSettings: "account-settings",
  error: "error",
  teamInvitation: "team-invitation",
  mfa: "mfa",
  cliAuthConfirm: "cli-auth-confirm",
  onboarding: "onboarding",
  impersonate: "impersonate",
} as const;

export type HandlerPage = keyof typeof HANDLER_PAGES;
export type RedirectTarget = "home" | "afterSignIn" | "afterSignUp" | "afterSignOut";
export type HandlerUrls = Record<HandlerPage | RedirectTarget | "handler", string>;
export type HandlerUrlOptions = Partial<HandlerUrls>;

export const DEFAULT_HANDLER_PATH = "/handler";

export function resolveHandlerUrls(options: HandlerUrlOptions = {}): HandlerUrls {
  const handler = (options.handler ?? DEFAULT_HANDLER_PATH).replace(/\/+$/, "") || "/";
  if (!handler.startsWith("/")) throw new Error(`The handler path must start with '/' (got ${JSON.stringify(handler)}).`);
  const pages = Object.fromEntries(
    Object.entries(HANDLER_PAGES).map(([page, segment]) => [
      page,
      options[page as HandlerPage] ?? `${handler === "/" ? "" : handler}/${segment}`,
    ]),
  ) as Record<HandlerPage, string>;
  const home = options.home ?? "/";
  const afterSignIn = options.afterSignIn ?? home;
  return {
    handler,
    ...pages,
    home,
    afterSignIn,
    afterSignUp: options.afterSignUp ?? afterSignIn,
    afterSignOut: options.afterSignOut ?? home,
  };
}

/** The query parameter that carries where to return after signing in or up. */
export const AFTER_AUTH_RETURN_TO = "after_auth_return_to";

/** The handler page a path (as the host app's router sees it) shows, or null. */
export function handlerPageOf(urls: HandlerUrls, pathname: string): HandlerPage | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  for (const page of Object.keys(HANDLER_PAGES) as HandlerPage[]) {
    if (new URL(urls[page], "http://x").pathname.replace(/\/+$/, "") === path) return page;
  }
  return null;
}
