/**
 * StackClientApp: what a browser or any end-user client uses — sign-up and
 * sign-in, the signed-in user, sign-out, the project's public settings, and
 * the redirects between handler pages.
 */
import { INTERNAL_PROJECT_ID } from "@latchkey/shared/constants";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { USER_NOT_SIGNED_IN_THROW_MESSAGE } from "../errors.ts";
import { ApiClient, type AccessType } from "../interface/api-client.ts";
import type { ClientProjectJson, ClientUserJson, SignInTokensJson } from "../models/json.ts";
import { projectFromJson, type Project } from "../models/project.ts";
import { CurrentInternalUser } from "../models/internal-user.ts";
import { CurrentUser } from "../models/current-user.ts";
import type { UserContext } from "../models/user-fields.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import {
  resolveHandlerUrls,
  type HandlerPage,
  type HandlerUrlOptions,
  type HandlerUrls,
  type RedirectTarget,
} from "../urls/handler-urls.ts";
import type { RedirectMethod } from "../urls/redirect.ts";
import { AppRedirects, type RedirectToOptions } from "./app-redirects.ts";
import { AppSessions } from "./app-sessions.ts";
import * as codes from "./email-codes.ts";

export type { RedirectToOptions };

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
}

export interface GetUserOptions {
  /** What to do when nobody is signed in (default "return-null"). */
  or?: "redirect" | "throw" | "return-null" | "anonymous";
  /** Also return users who are restricted (e.g. e-mail not yet verified). Default false. */
  includeRestricted?: boolean;
  /** Read the user of these tokens instead of the app's token store. */
  tokenStore?: TokenStoreInit;
}


type SignInError = InstanceType<typeof KnownErrors.EmailPasswordMismatch> | InstanceType<typeof KnownErrors.InvalidTotpCode>;
type SignUpError =
  | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>
  | InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>;

const DEFAULT_BASE_URL = "http://localhost:8102";
const MFA_ATTEMPT_STORAGE_KEY = "latchkey-mfa-attempt-code";

export class StackClientApp {
  readonly projectId: string;
  readonly urls: Readonly<HandlerUrls>;
  protected readonly api: ApiClient;
  protected readonly accessType: AccessType = "client";
  readonly #sessions: AppSessions;
  readonly #redirects: AppRedirects;
  readonly #userListeners = new Set<() => void>();

  constructor(protected readonly options: StackClientAppOptions) {
    if (!options.projectId) throw new Error("StackClientApp needs a projectId.");
    this.projectId = options.projectId;
    this.api = new ApiClient({
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      projectId: options.projectId,
      publishableClientKey: options.publishableClientKey,
      extraRequestHeaders: options.extraRequestHeaders,
      fetch: options.fetch,
      ...this.extraCredentials(),
    });
    this.urls = Object.freeze(resolveHandlerUrls(options.urls));
    this.#sessions = new AppSessions(
      options.projectId,
      options.tokenStore,
      (refreshToken) => this.api.refreshAccessToken(refreshToken, this.accessType),
      () => this.notifyUserChanged(),
    );
    this.#redirects = new AppRedirects(this.urls, options.redirectMethod ?? (typeof window === "undefined" ? "none" : "window"));
  }

  /** Server and admin apps add their keys here. */
  protected extraCredentials(): { secretServerKey?: string; superSecretAdminKey?: string } {
    return {};
  }

  // -------------------------------------------------------------------------
  // Sessions and tokens

  /** The session of the given tokens, or of the app's own token store. */
  protected sessionFor(tokenStore?: TokenStoreInit | null): Session {
    return this.#sessions.sessionFor(tokenStore);
  }

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

  /** `Bearer <access token>` for your own API, or null when signed out. */
  async getAuthorizationHeader(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    const accessToken = await this.getAccessToken(options);
    return accessToken === null ? null : `Bearer ${accessToken}`;
  }

  /** Called whenever the signed-in user may have changed (sign-in, sign-out, updates); returns the unsubscribe function. */
  onUserChange(listener: () => void): () => void {
    this.#userListeners.add(listener);
    return () => this.#userListeners.delete(listener);
  }

  protected notifyUserChanged(): void {
    for (const listener of this.#userListeners) listener();
  }

  // -------------------------------------------------------------------------
  // Sign-up, sign-in, sign-out

  async signUpWithCredential(options: {
    email: string;
    password: string;
    noRedirect?: boolean;
    /** Do not send a verification e-mail link (no callback URL). */
    noVerificationCallback?: boolean;
    verificationCallbackUrl?: string;
  }): Promise<Result<undefined, SignUpError>> {
    const callbackUrl = options.noVerificationCallback ? undefined : (options.verificationCallbackUrl ?? this.absoluteUrl(this.urls.emailVerification));
    let tokens: SignInTokensJson;
    try {
      tokens = await this.api.send<SignInTokensJson>("/auth/password/sign-up", {
        method: "POST",
        accessType: this.accessType,
        body: { email: options.email, password: options.password, ...(callbackUrl ? { verification_callback_url: callbackUrl } : {}) },
      });
    } catch (error) {
      if (error instanceof KnownErrors.UserWithEmailAlreadyExists || error instanceof KnownErrors.PasswordRequirementsNotMet) {
        return Result.error(error);
      }
      throw error;
    }
    this.sessionFor().set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    if (!options.noRedirect) await this.#redirects.afterAuth("afterSignUp");
    return Result.ok(undefined);
  }

  async signInWithCredential(options: { email: string; password: string; noRedirect?: boolean }): Promise<Result<undefined, SignInError>> {
    let tokens: SignInTokensJson;
    try {
      tokens = await this.api.send<SignInTokensJson>("/auth/password/sign-in", {
        method: "POST",
        accessType: this.accessType,
        body: { email: options.email, password: options.password },
      });
    } catch (error) {
      if (error instanceof KnownErrors.MultiFactorAuthenticationRequired) {
        // SPEC §4: keep the attempt code for the MFA page and go there.
        const attemptCode = (error.details?.attempt_code as string | undefined) ?? "";
        if (typeof sessionStorage !== "undefined") sessionStorage.setItem(MFA_ATTEMPT_STORAGE_KEY, attemptCode);
        await this.redirectToMfa();
        throw error;
      }
      if (error instanceof KnownErrors.EmailPasswordMismatch || error instanceof KnownErrors.InvalidTotpCode) {
        return Result.error(error);
      }
      throw error;
    }
    this.sessionFor().set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    if (!options.noRedirect) await this.#redirects.afterAuth("afterSignIn");
    return Result.ok(undefined);
  }

  /** Ends the session on the server (if it still exists), forgets the tokens, then redirects. */
  async signOut(options: { redirectUrl?: string | URL; tokenStore?: TokenStoreInit } = {}): Promise<void> {
    return this.signOutSession(this.sessionFor(options.tokenStore), options.redirectUrl);
  }

  private async signOutSession(session: Session, redirectUrl?: string | URL): Promise<void> {
    const { refreshToken } = session.tokens;
    if (refreshToken !== null) {
      try {
        await this.api.send("/auth/sessions/current", {
          method: "DELETE",
          accessType: this.accessType,
          headers: { "x-stack-refresh-token": refreshToken },
        });
      } catch (error) {
        // Already gone on the server: signing out locally is all that is left (SPEC §8).
        if (!(error instanceof KnownErrors.RefreshTokenNotFoundOrExpired)) throw error;
      }
    }
    session.clear();
    // Explicit-token sessions are not the app's own: no one else changes user.
    if (!this.#sessions.isAppSession(session)) this.notifyUserChanged();
    await this.redirectToUrl(redirectUrl?.toString() ?? this.urls.afterSignOut);
  }

  // -------------------------------------------------------------------------
  // Mailed codes: magic links and typed sign-in codes, e-mail verification, password reset

  /** Mails a sign-in link and code; keep the nonce to sign in with the 6 characters the user types. */
  sendMagicLinkEmail(email: string, options: { callbackUrl?: string } = {}) {
    return codes.sendMagicLinkEmail(this.codeFlows(), email, options);
  }

  /** Signs in with a magic link's code, or with the typed 6 characters followed by the nonce; then redirects. */
  async signInWithMagicLink(code: string, options: { noRedirect?: boolean } = {}): Promise<Result<undefined, codes.VerificationCodeError | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>>> {
    const result = await codes.signInWithCode(this.codeFlows(), code);
    if (result.status === "error") return result;
    this.sessionFor().set({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
    if (!options.noRedirect) await this.#redirects.afterAuth(result.data.is_new_user ? "afterSignUp" : "afterSignIn");
    return Result.ok(undefined);
  }

  async verifyEmail(code: string): Promise<Result<undefined, codes.VerificationCodeError>> {
    const result = await codes.verifyEmail(this.codeFlows(), code);
    if (result.status === "ok") this.notifyUserChanged();
    return result;
  }

  sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}) {
    return codes.sendForgotPasswordEmail(this.codeFlows(), email, options);
  }

  verifyPasswordResetCode(code: string) {
    return codes.verifyPasswordResetCode(this.codeFlows(), code);
  }

  resetPassword(options: { code: string; password: string }) {
    return codes.resetPassword(this.codeFlows(), options);
  }

  private codeFlows(): codes.CodeFlowContext {
    return {
      api: this.api,
      accessType: this.accessType,
      callbackUrl: (given, page) => {
        const url = given ?? this.absoluteUrl(this.urls[page]);
        if (url === undefined) {
          throw new Error(`Outside a browser, pass callbackUrl: the absolute URL of your ${this.urls[page]} page, which the mailed link opens.`);
        }
        return url;
      },
    };
  }

  // -------------------------------------------------------------------------
  // The signed-in user and the project

  getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    const session = this.sessionFor(options.tokenStore);
    const anonymous = options.or === "anonymous";
    const user = await this.readCurrentUser(session, anonymous, anonymous || options.includeRestricted === true);
    if (user) return user;
    switch (options.or) {
      case "redirect":
        await this.redirectToSignIn();
        throw new Error("Redirected to the sign-in page: nobody is signed in.");
      case "throw":
        throw new Error(USER_NOT_SIGNED_IN_THROW_MESSAGE);
      case "anonymous": {
        const tokens = await this.api.send<SignInTokensJson>("/auth/anonymous/sign-up", { method: "POST", accessType: this.accessType });
        session.set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
        const created = await this.readCurrentUser(session, true, true);
        if (!created) throw new Error("The anonymous user just created could not be read back.");
        return created;
      }
      default:
        return null;
    }
  }

  private async readCurrentUser(session: Session, allowAnonymous: boolean, allowRestricted: boolean): Promise<CurrentUser | null> {
    if (session.isSignedOut) return null;
    const headers: Record<string, string> = {};
    if (allowAnonymous) headers["x-stack-allow-anonymous-user"] = "true";
    if (allowRestricted) headers["x-stack-allow-restricted-user"] = "true";
    let json: ClientUserJson;
    try {
      json = await this.api.send<ClientUserJson>("/users/me", { accessType: this.accessType, session, headers });
    } catch (error) {
      // Signed out, or a kind of user this call does not accept: no user (SPEC §4, §8).
      if (
        error instanceof KnownErrors.CannotGetOwnUserWithoutUser ||
        error instanceof KnownErrors.AnonymousAuthenticationNotAllowed ||
        error instanceof KnownErrors.RestrictedUserNotAllowed
      ) {
        return null;
      }
      throw error;
    }
    // The server may answer with a restricted user when the token predates the restriction.
    if ((json.is_anonymous && !allowAnonymous) || (json.is_restricted && !allowRestricted)) return null;
    return this.currentUserFromJson(json, session);
  }

  protected currentUserFromJson(json: ClientUserJson, session: Session): CurrentUser {
    const context: UserContext = {
      api: this.api,
      accessType: this.accessType,
      session,
      userChanged: () => this.notifyUserChanged(),
      signOut: (options) => this.signOutSession(session, options?.redirectUrl),
      emailVerificationUrl: (given) => this.codeFlows().callbackUrl(given, "emailVerification"),
    };
    return this.projectId === INTERNAL_PROJECT_ID ? new CurrentInternalUser(json, context, this.options) : new CurrentUser(json, context);
  }

  async getProject(): Promise<Project> {
    return projectFromJson(await this.api.send<ClientProjectJson>("/projects/current", { accessType: this.accessType }));
  }

  // -------------------------------------------------------------------------
  // Redirects

  redirectToUrl(url: string, options: { replace?: boolean } = {}): Promise<void> {
    return this.#redirects.toUrl(url, options);
  }

  /** Goes to a handler page; sign-in and sign-up pages carry the current page to come back to. */
  redirectToHandler(page: HandlerPage | RedirectTarget, options: RedirectToOptions = {}): Promise<void> {
    return this.#redirects.toPage(page, options);
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
  redirectToHome = (options?: RedirectToOptions) => this.redirectToHandler("home", options);
  redirectToAfterSignIn = (options?: RedirectToOptions) => this.redirectToHandler("afterSignIn", options);
  redirectToAfterSignUp = (options?: RedirectToOptions) => this.redirectToHandler("afterSignUp", options);
  redirectToAfterSignOut = (options?: RedirectToOptions) => this.redirectToHandler("afterSignOut", options);

  private absoluteUrl(relative: string): string | undefined {
    if (typeof window === "undefined" || !window.location) return undefined;
    return new URL(relative, window.location.href).toString();
  }

  /** The attempt code an MFA-required sign-in left for the MFA page, if any. */
  static mfaAttemptCode(): string | null {
    return typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(MFA_ATTEMPT_STORAGE_KEY);
  }
}
