/**
 * ClientAppSignIn: the flows that sign a user in or out — sign-up, password,
 * two-factor and passkey sign-in, sign-out, the mailed codes (magic links,
 * e-mail verification, password reset), team-invitation codes and CLI login.
 *
 * The app is split into one class per concern: client-app-base.ts holds the
 * tokens and redirects, this file the sign-in flows, and StackClientApp
 * (client-app.ts) composes them with its sessions, caches and the reads of
 * the user and the project. What these flows need from it (its API client,
 * sessions, teams) is declared abstract here.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { ApiClient, AccessType } from "../interface/api-client.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import type { HandlerUrls } from "../urls/handler-urls.ts";
import { ClientAppBase } from "./client-app-base.ts";
import * as cli from "./cli-login.ts";
import * as codes from "./email-codes.ts";
import type { BotChallenge } from "./bot-challenge.ts";
import * as credentials from "./credentials.ts";
import type { MfaSignInError, SignInError, SignUpError } from "./credentials.ts";
import { oauthFlowOfCurrentPage, type OAuthFlowOfPage } from "./oauth-flow.ts";
import * as oauth from "./oauth-sign-in.ts";
import * as passkeys from "./passkeys.ts";
import * as invitations from "./team-invitations.ts";
import type { AppTeams } from "./teams.ts";

export abstract class ClientAppSignIn extends ClientAppBase {
  abstract readonly urls: Readonly<HandlerUrls>;
  protected abstract readonly api: ApiClient;
  protected abstract readonly accessType: AccessType;
  /** Accepting an invitation changes the user's teams (apps/teams.ts). */
  protected abstract readonly teams: AppTeams;
  /** Something about a user changed where it may be any session's user: every session's cached reads are read again. */
  protected abstract notifyUserChanged(): void;
  /** The app's `oauthScopesOnSignIn` option. */
  protected abstract readonly oauthScopesOnSignIn: oauth.OAuthScopesOnSignIn;

  // -------------------------------------------------------------------------
  // Sign-up, sign-in, sign-out

  async signUpWithCredential(options: {
    email: string;
    password: string;
    noRedirect?: boolean;
    /** Do not send a verification e-mail link (no callback URL). */
    noVerificationCallback?: boolean;
    verificationCallbackUrl?: string;
    botChallenge?: BotChallenge;
  }): Promise<Result<undefined, SignUpError>> {
    const result = await credentials.signUpWithPassword(this.credentialContext(), {
      email: options.email,
      password: options.password,
      verificationCallbackUrl: options.noVerificationCallback
        ? undefined
        : (options.verificationCallbackUrl ?? this.absoluteUrl(this.urls.emailVerification)),
      botChallenge: options.botChallenge,
    });
    return this.signedIn(result, options.noRedirect ? null : "afterSignUp");
  }

  async signInWithCredential(options: { email: string; password: string; noRedirect?: boolean }): Promise<Result<undefined, SignInError>> {
    const result = await credentials.signInWithPassword(this.credentialContext(), options);
    return this.signedIn(result, options.noRedirect ? null : "afterSignIn");
  }

  /**
   * The second step of a sign-in that needed two-factor: the 6 digits of the
   * user's authenticator app and the attempt code the first step left (in
   * browsers, `StackClientApp.mfaAttemptCode()`); then redirects.
   */
  async signInWithMfa(totp: string, code: string, options: { noRedirect?: boolean } = {}): Promise<Result<undefined, MfaSignInError>> {
    const result = await credentials.signInWithMfa(this.credentialContext(), { totp, code });
    return this.signedIn(result, options.noRedirect ? null : afterCodeSignIn(result));
  }

  /**
   * Signs in with a passkey the browser offers for this site, then goes to the
   * after-sign-in page. A user with two-factor on is sent to the MFA page
   * instead, and the call throws MULTI_FACTOR_AUTHENTICATION_REQUIRED, as a
   * password sign-in does (credentials.ts).
   */
  async signInWithPasskey(): Promise<Result<undefined, passkeys.PasskeySignInError>> {
    const result = await passkeys.signInWithPasskey({ api: this.api, accessType: this.accessType, toMfaPage: () => this.redirectToMfa() });
    return this.signedIn(result, "afterSignIn");
  }

  // -------------------------------------------------------------------------
  // OAuth (apps/oauth-sign-in.ts)

  /**
   * Signs in (or up) with an OAuth provider of the project (`github`,
   * `google`, …): sends the browser to the provider, which brings it back to
   * the app's oauth-callback page, where `callOAuthCallback` finishes.
   */
  async signInWithOAuth(provider: string, options: oauth.OAuthSignInOptions = {}): Promise<void> {
    await oauth.signInWithOAuth(this.oauthContext(), provider, options);
  }

  /**
   * On the oauth-callback page: exchanges the code of a flow this browser
   * started for the user's tokens, then goes on to where the flow asked, else
   * the after-sign-up page for a new user, else the after-sign-in page.
   * Resolves false when the page holds nothing to finish (e.g. reloaded);
   * throws the error the flow ended with (the user denied access, the e-mail
   * belongs to another account, …).
   */
  async callOAuthCallback(): Promise<boolean> {
    const outcome = await oauth.finishOAuthCallback(this.oauthContext());
    if (outcome === null) return false;
    if (outcome.kind === "signed-in") this.sessionFor().set({ accessToken: outcome.accessToken, refreshToken: outcome.refreshToken });
    // A link changed the user's accounts: their cached reads are read again.
    else this.notifyUserChanged();
    if (outcome.afterCallbackRedirectUrl) await this.redirects.toUrl(outcome.afterCallbackRedirectUrl, { replace: true });
    else if (outcome.kind === "signed-in")
      await this.redirectToHandler(outcome.isNewUser ? "afterSignUp" : "afterSignIn", { replace: true });
    else await this.redirectToHandler("accountSettings", { replace: true });
    return true;
  }

  /**
   * On the oauth-callback page, before `callOAuthCallback`: whether this tab
   * started the page's flow as a sign-in or as connecting an account, and
   * where it returns to (e.g. to lead a failed link back to where it began).
   */
  oauthFlowOfCurrentPage(): OAuthFlowOfPage | null {
    return oauthFlowOfCurrentPage();
  }

  /** What the OAuth flows need; a signed-in user's connected accounts start theirs here too. */
  protected oauthContext(session: Session = this.sessionFor()): oauth.OAuthContext {
    return {
      api: this.api,
      accessType: this.accessType,
      session,
      urls: this.urls,
      scopesOnSignIn: this.oauthScopesOnSignIn,
      absoluteUrl: (relative) => this.absoluteUrl(relative),
      toMfaPage: (returnTo) => this.redirectToMfa({ replace: true, ...(returnTo ? { returnTo } : {}) }),
    };
  }

  /** Keeps the tokens of a successful sign-in on the app's session, then goes where the app sends its users next. */
  private async signedIn<E>(
    result: Result<{ access_token: string; refresh_token: string }, E>,
    next: "afterSignIn" | "afterSignUp" | null,
  ): Promise<Result<undefined, E>> {
    if (result.status === "error") return result;
    this.sessionFor().set({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
    if (next !== null) await this.redirects.afterAuth(next);
    return Result.ok(undefined);
  }

  private credentialContext(): credentials.CredentialContext {
    return { api: this.api, accessType: this.accessType, session: this.sessionFor(), toMfaPage: () => this.redirectToMfa() };
  }

  /** Ends the session on the server (if it still exists), forgets the tokens, then redirects. */
  async signOut(options: { redirectUrl?: string | URL; tokenStore?: TokenStoreInit } = {}): Promise<void> {
    return this.signOutSession(this.sessionFor(options.tokenStore), options.redirectUrl);
  }

  /** Signs out `session` (the app's own or one of given tokens); a signed-in user's `signOut` ends here too (client-app.ts). */
  protected async signOutSession(session: Session, redirectUrl?: string | URL): Promise<void> {
    const { refreshToken } = session.tokens;
    if (refreshToken !== null) {
      try {
        await this.api.call("DELETE /auth/sessions/current", {
          accessType: this.accessType,
          headers: { "x-stack-refresh-token": refreshToken },
        });
      } catch (error) {
        // Already gone on the server: signing out locally is all that is left.
        if (!(error instanceof KnownErrors.RefreshTokenNotFoundOrExpired)) throw error;
      }
    }
    // Clearing the tokens invalidates the session's cached user (see AppSessions).
    session.clear();
    await this.redirectToUrl(redirectUrl?.toString() ?? this.urls.afterSignOut);
  }

  // -------------------------------------------------------------------------
  // Mailed codes: magic links and typed sign-in codes, e-mail verification, password reset

  /** Mails a sign-in link and code; keep the nonce to sign in with the 6 characters the user types. */
  sendMagicLinkEmail(email: string, options: { callbackUrl?: string; botChallenge?: BotChallenge } = {}) {
    return codes.sendMagicLinkEmail(this.codeFlowContext(), email, options);
  }

  /** Signs in with a magic link's code, or with the typed 6 characters followed by the nonce; then redirects. */
  async signInWithMagicLink(
    code: string,
    options: { noRedirect?: boolean } = {},
  ): Promise<Result<undefined, codes.VerificationCodeError | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>>> {
    const result = await credentials.catchMfaRequired(this.credentialContext(), () => codes.signInWithCode(this.codeFlowContext(), code));
    return this.signedIn(result, options.noRedirect ? null : afterCodeSignIn(result));
  }

  async verifyEmail(code: string): Promise<Result<undefined, codes.VerificationCodeError>> {
    const result = await codes.verifyEmail(this.codeFlowContext(), code);
    if (result.status === "ok") this.notifyUserChanged();
    return result;
  }

  sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}) {
    return codes.sendForgotPasswordEmail(this.codeFlowContext(), email, options);
  }

  verifyPasswordResetCode(code: string) {
    return codes.verifyPasswordResetCode(this.codeFlowContext(), code);
  }

  resetPassword(options: { code: string; password: string }) {
    return codes.resetPassword(this.codeFlowContext(), options);
  }

  // -------------------------------------------------------------------------
  // Team invitations: the code of an invitation mail (its link opens urls.teamInvitation)

  /** The signed-in user joins the invitation's team. */
  async acceptTeamInvitation(code: string, options: { tokenStore?: TokenStoreInit } = {}) {
    const result = await invitations.acceptTeamInvitation(this.invitationCodes(options.tokenStore), code);
    if (result.status === "ok") this.teams.changed();
    return result;
  }

  /** Whether an invitation code may still be accepted. */
  verifyTeamInvitationCode(code: string) {
    return invitations.verifyTeamInvitationCode(this.invitationCodes(), code);
  }

  /** The team an invitation code is for. */
  getTeamInvitationDetails(code: string, options: { tokenStore?: TokenStoreInit } = {}) {
    return invitations.getTeamInvitationDetails(this.invitationCodes(options.tokenStore), code);
  }

  private invitationCodes(tokenStore?: TokenStoreInit): invitations.InvitationCodeContext {
    return { api: this.api, accessType: this.accessType, session: this.sessionFor(tokenStore) };
  }

  /** What the mailed-code flows need; its `callbackUrl` also makes the links of team invitations and e-mail verification mails. */
  protected codeFlowContext(): codes.CodeFlowContext {
    return {
      api: this.api,
      accessType: this.accessType,
      session: this.sessionFor(),
      callbackUrl: (given, page) => this.codeCallbackUrl(given, page),
    };
  }

  /** The page a mailed link opens: the given URL, else the app's own page (absolute); needs no signed-in user. */
  protected codeCallbackUrl(given: string | undefined, page: Parameters<codes.CodeFlowContext["callbackUrl"]>[1]): string {
    const url = given ?? this.absoluteUrl(this.urls[page]);
    if (url === undefined) {
      throw new Error(
        `Outside a browser, pass callbackUrl: the absolute URL of your ${this.urls[page]} page, which the mailed link opens.`,
      );
    }
    return url;
  }

  // -------------------------------------------------------------------------
  // CLI login (apps/cli-login.ts): a CLI waits for the browser; the browser confirms

  /** From a CLI (plain Node works): shows a link to the app's confirmation page, resolves with the refresh token once confirmed. */
  promptCliLogin(options: cli.PromptCliLoginOptions): Promise<Result<string, cli.CliLoginError>> {
    return cli.promptCliLogin({ api: this.api, accessType: this.accessType }, options);
  }

  /** Hands the CLI of `loginCode` the signed-in session. */
  confirmCliLogin(loginCode: string, options: { tokenStore?: TokenStoreInit } = {}) {
    return cli.confirmCliLogin(this.cliConfirmContext(options.tokenStore), loginCode);
  }

  /** Whether the CLI of `loginCode` came with an anonymous session that the browser may take over. */
  getCliLoginSessionState(loginCode: string) {
    return cli.getCliLoginSessionState({ api: this.api, accessType: this.accessType }, loginCode);
  }

  /** Signs this browser in as the CLI's anonymous user (once), e.g. to sign up as that user. */
  claimCliAnonSession(loginCode: string, options: { tokenStore?: TokenStoreInit } = {}) {
    return cli.claimCliAnonSession(this.cliConfirmContext(options.tokenStore), loginCode);
  }

  private cliConfirmContext(tokenStore?: TokenStoreInit): cli.CliConfirmContext {
    return { api: this.api, accessType: this.accessType, session: this.sessionFor(tokenStore) };
  }

  private absoluteUrl(relative: string): string | undefined {
    if (typeof window === "undefined" || !window.location) return undefined;
    return new URL(relative, window.location.href).toString();
  }

  /** The attempt code an MFA-required sign-in left for the MFA page, if any. */
  static mfaAttemptCode(): string | null {
    return credentials.readMfaAttemptCode();
  }
}

/** A sign-in by code that made a new user goes on as a sign-up. */
function afterCodeSignIn(result: Result<{ is_new_user: boolean }, unknown>): "afterSignIn" | "afterSignUp" {
  return result.status === "ok" && result.data.is_new_user ? "afterSignUp" : "afterSignIn";
}
