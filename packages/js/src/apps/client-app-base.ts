/**
 * What every app offers on top of its sessions and redirects: the tokens of
 * the signed-in session, and the redirects between handler pages. The
 * options and user-read choices StackClientApp takes are here too, so
 * client-app-sign-in.ts and client-app.ts hold the flows themselves.
 */
import type { Session } from "../session/session.ts";
import { AUTH_JSON_HEADER, authorizationHeaderOf } from "../session/request-tokens.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import type { HandlerPage, HandlerUrlOptions, RedirectTarget } from "../urls/handler-urls.ts";
import type { RedirectMethod } from "../urls/redirect.ts";
import type { AppRedirects, RedirectToOptions } from "./app-redirects.ts";
import type { OAuthScopesOnSignIn } from "./oauth-sign-in.ts";
import { partialUserOfConvex, partialUserOfSession, type GetPartialUserOptions, type TokenPartialUser } from "./partial-user.ts";

export interface StackClientAppOptions {
  /** The Latchkey server, e.g. `https://auth.example.com` (default: `http://localhost:8102`). */
  baseUrl?: string;
  projectId: string;
  publishableClientKey?: string;
  /** Where tokens live: "cookie" (browsers), "memory", explicit tokens, or null (pass one per call). */
  tokenStore: TokenStoreInit | null;
  urls?: HandlerUrlOptions;
  /** How to redirect: "window" (default in browsers), "none", or your router's navigate function. */
  redirectMethod?: RedirectMethod;
  extraRequestHeaders?: Record<string, string>;
  fetch?: typeof fetch;
  /** Extra scopes to ask each OAuth provider for at every sign-in (e.g. `{ github: ["repo"] }`); not with shared keys. */
  oauthScopesOnSignIn?: OAuthScopesOnSignIn;
}

export interface GetUserOptions {
  /** What to do when nobody is signed in (default "return-null"). */
  or?: "redirect" | "throw" | "return-null" | "anonymous";
  /** Also return users who are restricted (e.g. e-mail not yet verified). Default false. */
  includeRestricted?: boolean;
  /** Read the user of these tokens instead of the app's token store. */
  tokenStore?: TokenStoreInit;
}

/** Which signed-in users a read of the current user accepts ("anonymous" also makes one when nobody is signed in). */
export type UserKind = "default" | "include-restricted" | "anonymous";

export function userKind(options: { or?: GetUserOptions["or"]; includeRestricted?: boolean }): UserKind {
  if (options.or === "anonymous") return "anonymous";
  return options.includeRestricted === true ? "include-restricted" : "default";
}

export abstract class ClientAppBase {
  /** The session of the given tokens, or of the app's own token store. */
  protected abstract sessionFor(tokenStore?: TokenStoreInit | null): Session;
  protected abstract readonly redirects: AppRedirects;

  // -------------------------------------------------------------------------
  // Tokens

  /** Signs in with tokens obtained elsewhere (e.g. from a server-side session). */
  async signInWithTokens(tokens: { accessToken: string | null; refreshToken: string }): Promise<void> {
    this.sessionFor().set({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
  }

  async getAccessToken(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    return this.sessionFor(options.tokenStore).getAccessToken();
  }

  async getRefreshToken(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    return this.sessionFor(options.tokenStore).tokens.refreshToken;
  }

  async getAuthJson(options: { tokenStore?: TokenStoreInit } = {}): Promise<{ accessToken: string | null; refreshToken: string | null }> {
    const session = this.sessionFor(options.tokenStore);
    const accessToken = await session.getAccessToken();
    return { accessToken, refreshToken: session.tokens.refreshToken };
  }

  /**
   * The `Authorization` header for requests to your own backend
   * (`Bearer stackauth_<base64 of getAuthJson()>`), or null when signed out.
   * There, `StackServerApp.getUser({ tokenStore: request })` reads it.
   */
  async getAuthorizationHeader(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    return authorizationHeaderOf(await this.getAuthJson(options));
  }

  /** The older form of getAuthorizationHeader: an `x-stack-auth` header holding getAuthJson()'s JSON. */
  async getAuthHeaders(options: { tokenStore?: TokenStoreInit } = {}): Promise<{ [AUTH_JSON_HEADER]: string }> {
    return { [AUTH_JSON_HEADER]: JSON.stringify(await this.getAuthJson(options)) };
  }

  /**
   * Who is signed in, read from the access token's claims (`from: "token"`)
   * or a Convex function's identity (`from: "convex"`), with no request;
   * null when signed out or the access token has expired.
   */
  async getPartialUser(options: GetPartialUserOptions): Promise<TokenPartialUser | null> {
    switch (options.from) {
      case "token":
        return partialUserOfSession(this.sessionFor(options.tokenStore), options);
      case "convex":
        return partialUserOfConvex(options.ctx, options);
      default:
        throw new Error(`getPartialUser reads from "token" or "convex", not ${JSON.stringify((options as { from: unknown }).from)}.`);
    }
  }

  // -------------------------------------------------------------------------
  // Redirects

  redirectToUrl(url: string, options: { replace?: boolean } = {}): Promise<void> {
    return this.redirects.toUrl(url, options);
  }

  /** Goes to a handler page; sign-in and sign-up pages carry the current page to come back to. */
  redirectToHandler(page: HandlerPage | RedirectTarget, options: RedirectToOptions = {}): Promise<void> {
    return this.redirects.toPage(page, options);
  }

  redirectToSignIn = (options?: RedirectToOptions) => this.redirectToHandler("signIn", options);
  redirectToSignUp = (options?: RedirectToOptions) => this.redirectToHandler("signUp", options);
  redirectToSignOut = (options?: RedirectToOptions) => this.redirectToHandler("signOut", options);
  redirectToEmailVerification = (options?: RedirectToOptions) => this.redirectToHandler("emailVerification", options);
  redirectToPasswordReset = (options?: RedirectToOptions) => this.redirectToHandler("passwordReset", options);
  redirectToForgotPassword = (options?: RedirectToOptions) => this.redirectToHandler("forgotPassword", options);
  redirectToMagicLinkCallback = (options?: RedirectToOptions) => this.redirectToHandler("magicLinkCallback", options);
  redirectToAccountSettings = (options?: RedirectToOptions) => this.redirectToHandler("accountSettings", options);
  redirectToError = (options?: RedirectToOptions) => this.redirectToHandler("error", options);
  redirectToTeamInvitation = (options?: RedirectToOptions) => this.redirectToHandler("teamInvitation", options);
  redirectToMfa = (options?: RedirectToOptions) => this.redirectToHandler("mfa", options);
  redirectToOAuthCallback = (options?: RedirectToOptions) => this.redirectToHandler("oauthCallback", options);
  redirectToCliAuthConfirm = (options?: RedirectToOptions) => this.redirectToHandler("cliAuthConfirm", options);
  redirectToOnboarding = (options?: RedirectToOptions) => this.redirectToHandler("onboarding", options);
  redirectToHome = (options?: RedirectToOptions) => this.redirectToHandler("home", options);
  redirectToAfterSignIn = (options?: RedirectToOptions) => this.redirectToHandler("afterSignIn", options);
  redirectToAfterSignUp = (options?: RedirectToOptions) => this.redirectToHandler("afterSignUp", options);
  redirectToAfterSignOut = (options?: RedirectToOptions) => this.redirectToHandler("afterSignOut", options);
}
