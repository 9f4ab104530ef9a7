/**
 * StackClientApp: what a browser or any end-user client uses — sign-up and
 * sign-in, the signed-in user, sign-out, the project's public settings, and
 * the code flows. Its tokens and redirects are in client-app-base.ts.
 */
import { INTERNAL_PROJECT_ID } from "@latchkey/shared/constants";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { USER_NOT_SIGNED_IN_THROW_MESSAGE } from "../errors.ts";
import { CachedQuery, CacheStore, type CacheEntry } from "../cache/index.ts";
import { ApiClient, type AccessType } from "../interface/api-client.ts";
import { listContactChannels } from "../models/contact-channel.ts";
import { listNotificationCategories } from "../models/notification-category.ts";
import type { ClientUserJson, ServerUserJson } from "../models/json.ts";
import { ServerUser } from "../models/server-user.ts";
import { projectFromJson, type Project } from "../models/project.ts";
import { CurrentInternalUser } from "../models/internal-user.ts";
import { channelContextOf, CurrentUser, passkeyContextOf } from "../models/current-user.ts";
import { listPasskeys } from "../models/passkey.ts";
import type { UserContext } from "../models/user-fields.ts";
import { Result } from "../result.ts";
import { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";
import { resolveHandlerUrls, type HandlerUrls } from "../urls/handler-urls.ts";
import { AppRedirects, type RedirectToOptions } from "./app-redirects.ts";
import { ClientAppBase, userKind, type GetUserOptions, type StackClientAppOptions, type UserKind } from "./client-app-base.ts";
import { AppSessions } from "./app-sessions.ts";
import * as cli from "./cli-login.ts";
import * as codes from "./email-codes.ts";
import type { BotChallenge } from "./bot-challenge.ts";
import * as credentials from "./credentials.ts";
import type { MfaSignInError, SignInError, SignUpError } from "./credentials.ts";
import { readCurrentUserJson } from "./current-user-read.ts";
import * as passkeys from "./passkeys.ts";
import * as invitations from "./team-invitations.ts";
import { AppTeams } from "./teams.ts";

export type { RedirectToOptions };
export type { GetUserOptions, StackClientAppOptions };

const DEFAULT_BASE_URL = "http://localhost:8102";

export class StackClientApp extends ClientAppBase {
  readonly projectId: string;
  readonly urls: Readonly<HandlerUrls>;
  protected readonly api: ApiClient;
  protected readonly accessType: AccessType = "client";
  readonly #sessions: AppSessions;
  protected readonly redirects: AppRedirects;
  readonly #userListeners = new Set<() => void>();
  /** Sessions an anonymous read of the user is signing up right now (that read's answer is already the new user). */
  readonly #signingUpAnonymously = new WeakSet<Session>();
  /**
   * Every cached read of this app (see cache/query.ts for adding one): the
   * hooks of @latchkey/react and the get and list methods share its entries.
   */
  protected readonly cache = new CacheStore();
  readonly #user = new CachedQuery(this.cache, "user", (session: Session, kind: UserKind) => this.fetchCurrentUser(session, kind));
  readonly #project = new CachedQuery(this.cache, "project", () => this.fetchProject());
  readonly #contactChannels = new CachedQuery(this.cache, "contactChannels", (session: Session) =>
    listContactChannels(channelContextOf(this.userContext(session))),
  );
  readonly #passkeys = new CachedQuery(this.cache, "passkeys", (session: Session) =>
    listPasskeys(passkeyContextOf(this.userContext(session))),
  );
  readonly #notificationCategories = new CachedQuery(this.cache, "notificationCategories", (session: Session) =>
    listNotificationCategories({
      api: this.api,
      accessType: this.accessType,
      session,
      userIdOrMe: "me",
      changed: () => this.#notificationCategories.invalidate(session),
    }),
  );

  /** The cached team, member, invitation and permission reads (apps/teams.ts). */
  protected readonly teams: AppTeams;

  constructor(protected readonly options: StackClientAppOptions) {
    super();
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
      (session) => this.sessionUserChanged(session),
    );
    this.teams = new AppTeams({
      api: this.api,
      accessType: () => this.accessType,
      cache: this.cache,
      invitationCallbackUrl: (given) => this.codeFlows().callbackUrl(given, "teamInvitation"),
      serverUser: (json) => this.serverUser(json),
      usersChanged: () => {
        this.#user.invalidateAll();
        for (const listener of this.#userListeners) listener();
      },
    });
    this.redirects = new AppRedirects(this.urls, options.redirectMethod ?? (typeof window === "undefined" ? "none" : "window"));
  }

  /** Server and admin apps add their keys here. */
  protected extraCredentials(): { secretServerKey?: string; superSecretAdminKey?: string } {
    return {};
  }

  // -------------------------------------------------------------------------
  // Sessions and tokens

  /** The session of the given tokens, or of the app's own token store. */
  protected override sessionFor(tokenStore?: TokenStoreInit | null): Session {
    return this.#sessions.sessionFor(tokenStore);
  }

  /** Called whenever the signed-in user may have changed (sign-in, sign-out, updates); returns the unsubscribe function. */
  onUserChange(listener: () => void): () => void {
    this.#userListeners.add(listener);
    return () => this.#userListeners.delete(listener);
  }

  /** Something about a user changed where it may be any session's user: every session's cached reads are read again. */
  protected notifyUserChanged(): void {
    this.cache.invalidateWhere((entry) => entry.args.some((arg) => arg instanceof Session));
    for (const listener of this.#userListeners) listener();
  }

  /** Who is signed in on `session`, or what it knows about them, changed: its cached reads are read again. */
  private sessionUserChanged(session: Session): void {
    const signingUp = this.#signingUpAnonymously.has(session) ? this.#user.entry(session, "anonymous") : null;
    this.cache.invalidateWhere((entry) => entry.args.includes(session) && entry !== signingUp);
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
    const result = await passkeys.signInWithPasskey({
      api: this.api,
      accessType: this.accessType,
      session: this.sessionFor(),
      toMfaPage: () => this.redirectToMfa(),
    });
    return this.signedIn(result, "afterSignIn");
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

  private async signOutSession(session: Session, redirectUrl?: string | URL): Promise<void> {
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
    return codes.sendMagicLinkEmail(this.codeFlows(), email, options);
  }

  /** Signs in with a magic link's code, or with the typed 6 characters followed by the nonce; then redirects. */
  async signInWithMagicLink(
    code: string,
    options: { noRedirect?: boolean } = {},
  ): Promise<Result<undefined, codes.VerificationCodeError | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>>> {
    const result = await credentials.catchMfaRequired(this.credentialContext(), () => codes.signInWithCode(this.codeFlows(), code));
    return this.signedIn(result, options.noRedirect ? null : afterCodeSignIn(result));
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

  private codeFlows(): codes.CodeFlowContext {
    return {
      api: this.api,
      accessType: this.accessType,
      session: this.sessionFor(),
      callbackUrl: (given, page) => {
        const url = given ?? this.absoluteUrl(this.urls[page]);
        if (url === undefined) {
          throw new Error(
            `Outside a browser, pass callbackUrl: the absolute URL of your ${this.urls[page]} page, which the mailed link opens.`,
          );
        }
        return url;
      },
    };
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

  // -------------------------------------------------------------------------
  // The signed-in user and the project

  getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    const user = await this.#user.get(this.sessionFor(options.tokenStore), userKind(options));
    if (user) return user;
    switch (options.or) {
      case "redirect":
        await this.redirectToSignIn();
        throw new Error("Redirected to the sign-in page: nobody is signed in.");
      case "throw":
        throw new Error(USER_NOT_SIGNED_IN_THROW_MESSAGE);
      default:
        return null;
    }
  }

  /**
   * The cache entry of the app's signed-in user, for hooks (`useUser` of
   * @latchkey/react): shared with `getUser` calls of the same options.
   */
  _userEntry(options: { or?: GetUserOptions["or"]; includeRestricted?: boolean } = {}): CacheEntry<CurrentUser | null> {
    return this.#user.entry(this.sessionFor(), userKind(options));
  }

  /** The cache entry of the project's public settings, for hooks (`useProject`): shared with `getProject`. */
  _projectEntry(): CacheEntry<Project> {
    return this.#project.entry();
  }

  private async fetchCurrentUser(session: Session, kind: UserKind): Promise<CurrentUser | null> {
    const anonymous = kind === "anonymous";
    const user = await this.readCurrentUser(session, anonymous, kind !== "default");
    if (user || !anonymous) return user;
    const tokens = await this.api.call("POST /auth/anonymous/sign-up", { accessType: this.accessType });
    this.#signingUpAnonymously.add(session);
    try {
      session.set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    } finally {
      this.#signingUpAnonymously.delete(session);
    }
    const created = await this.readCurrentUser(session, true, true);
    if (!created) throw new Error("The anonymous user just created could not be read back.");
    return created;
  }

  private async readCurrentUser(session: Session, allowAnonymous: boolean, allowRestricted: boolean): Promise<CurrentUser | null> {
    const json = await readCurrentUserJson(this.api, this.accessType, session, { anonymous: allowAnonymous, restricted: allowRestricted });
    return json && this.currentUserFromJson(json, session);
  }

  /** The signed-in user of `session` from /users/me, read with this app's access (server apps get the server view). */
  protected currentUserFromJson(json: ClientUserJson, session: Session): CurrentUser {
    const context = this.userContext(session);
    return this.projectId === INTERNAL_PROJECT_ID ? new CurrentInternalUser(json, context, this.options) : new CurrentUser(json, context);
  }

  protected userContext(session: Session): UserContext {
    return {
      api: this.api,
      accessType: this.accessType,
      session,
      userChanged: () => this.sessionUserChanged(session),
      signOut: (options) => this.signOutSession(session, options?.redirectUrl),
      emailVerificationUrl: (given) => this.codeFlows().callbackUrl(given, "emailVerification"),
      contactChannels: () => this.#contactChannels.entry(session),
      notificationCategories: () => this.#notificationCategories.entry(session),
      passkeys: () => this.#passkeys.entry(session),
      teams: this.teams,
    };
  }

  /** A user read with server access (e.g. a team's member, on a server). */
  protected serverUser(json: ServerUserJson): ServerUser {
    return new ServerUser(json, {
      api: this.api,
      accessType: this.accessType,
      userChanged: () => this.notifyUserChanged(),
      teams: this.teams,
    });
  }

  async getProject(): Promise<Project> {
    return this.#project.get();
  }

  /** The project's settings changed through this app: its cached read is read again. */
  protected projectChanged(): void {
    this.#project.invalidate();
  }

  /** The read behind `getProject` and `useProject`. */
  protected async fetchProject(): Promise<Project> {
    return projectFromJson(await this.api.call("GET /projects/current", { accessType: this.accessType }));
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
