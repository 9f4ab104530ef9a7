/**
 * Signing in (or connecting an account) through an OAuth provider. The app
 * sends the browser to `/auth/oauth/authorize/<provider>` with its own PKCE
 * challenge and state; the server sends it on to the provider, which returns
 * it to `/auth/oauth/callback/<provider>`; the server then redirects to the
 * app's `redirect_uri` with a code, which the app exchanges (with its PKCE
 * verifier) at `POST /auth/oauth/token` for the user's tokens.
 *
 * Once the server knows the flow, coded errors of the callback are not
 * answered but redirected to the app (`redirect_uri`, else
 * `error_redirect_url`, when trusted) with `error=server_error`,
 * `error_description`, `errorCode`, `message` and `details`.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { urlSchema } from "../schema-fields.ts";
import { botChallengeFields, codeSignInJson, refineBotChallenge } from "./auth.ts";
import { defineEndpoint } from "./endpoint.ts";

export const OAUTH_FLOW_TYPES = ["authenticate", "link"] as const;
export const OAUTH_RESPONSE_MODES = ["redirect", "json"] as const;

export const oauthProviderParams = z.strictObject({ provider_id: z.string() });

export const oauthAuthorizeQuery = z
  .strictObject({
    /** The project id, or `<project>#<branch>`. */
    client_id: z.string(),
    /** The publishable client key, or `__stack_public_client__` when the project requires none. */
    client_secret: z.string(),
    /** The app's page that receives `code` and `state`; must be on a trusted domain. */
    redirect_uri: urlSchema,
    /** Always `legacy`. */
    scope: z.string(),
    state: z.string(),
    grant_type: z.enum(["authorization_code"]),
    /** The app's PKCE challenge: base64url of the SHA-256 of its verifier (43 characters). */
    code_challenge: z.string().min(43).max(128),
    code_challenge_method: z.enum(["S256"]),
    response_type: z.enum(["code"]),
    /** `authenticate`: sign in or up; `link`: connect the provider account to the user of `token`. */
    type: z.enum(OAUTH_FLOW_TYPES).default("authenticate"),
    /** The signed-in user's access token: required to link, and upgrades an anonymous user on sign-up. */
    token: z.string().default(""),
    /** Scopes to ask the provider for besides the sign-in ones (space-separated; not with shared keys). */
    provider_scope: z.string().optional(),
    /** Where errors go when `redirect_uri` cannot take them (older clients' name). */
    error_redirect_url: urlSchema.optional(),
    /** Where errors go when `redirect_uri` cannot take them; wins over `error_redirect_url`. */
    error_redirect_uri: urlSchema.optional(),
    /** Handed back by the token endpoint, for the app to go to after the callback; must be trusted. */
    after_callback_redirect_url: urlSchema.optional(),
    /** `json`: answer 200 `{location}` instead of redirecting (for clients that navigate themselves). */
    stack_response_mode: z.enum(OAUTH_RESPONSE_MODES).default("redirect"),
    ...botChallengeFields,
  })
  .superRefine(refineBotChallenge);
export type OAuthAuthorizeQuery = z.input<typeof oauthAuthorizeQuery>;

/** The provider's sign-in page: the Location of the redirect, or the body in JSON mode. */
export const oauthAuthorizeJson = z.union([z.string(), z.strictObject({ location: z.string() })]);

/** What the provider sends back (`code` and `state`, or `error`), plus whatever else it adds. */
export const oauthCallbackQuery = z.looseObject({
  state: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** A provider that answers with a form post (Apple's `response_mode=form_post`). */
export const oauthCallbackBody = z.looseObject({ state: z.string().optional() }).optional();

const CALLBACK_ERRORS = [
  KnownErrors.OuterOAuthTimeout,
  KnownErrors.InvalidPublishableClientKey,
  KnownErrors.PublishableClientKeyRequiredForProject,
  KnownErrors.OAuthProviderNotFoundOrNotEnabled,
  KnownErrors.OAuthProviderAccessDenied,
  KnownErrors.RedirectUrlNotWhitelisted,
  KnownErrors.SignUpNotEnabled,
  KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse,
  KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser,
] as const;

/**
 * A signed-in app hands its session to the same project's app on another
 * domain: a one-time code on that app's `redirect_uri`, which it redeems at
 * the token endpoint with its PKCE verifier for this very session.
 */
export const oauthCrossDomainAuthorizeBody = z.strictObject({
  /** The other app's page that receives `code` and `state`; must be trusted. */
  redirect_uri: urlSchema,
  state: z.string(),
  /** The other app's PKCE challenge: base64url of the SHA-256 of its verifier. */
  code_challenge: z.string().min(43).max(128),
  code_challenge_method: z.enum(["S256"]).default("S256"),
  /** Handed back by the token endpoint; must be trusted. */
  after_callback_redirect_url: urlSchema.optional(),
});
export type OAuthCrossDomainAuthorizeBody = z.input<typeof oauthCrossDomainAuthorizeBody>;

export const oauthCrossDomainAuthorizeJson = z.strictObject({
  /** `redirect_uri` with `code` and `state` added. */
  redirect_url: z.string(),
});

/** Native Sign in with Apple: the ID token Apple gave the app on the device. */
export const appleNativeSignInBody = z.strictObject({ id_token: z.string().min(1) });
export type AppleNativeSignInBody = z.input<typeof appleNativeSignInBody>;

export const oauthEndpoints = {
  appleNativeSignIn: defineEndpoint({
    method: "POST",
    path: "/auth/oauth/callback/apple/native",
    summary: "Sign in or up with the ID token of Apple's native Sign in with Apple (checked against the project's bundle ids)",
    tags: ["OAuth"],
    access: ["client", "server", "admin"],
    body: appleNativeSignInBody,
    response: codeSignInJson,
    errors: [
      KnownErrors.OAuthProviderNotFoundOrNotEnabled,
      KnownErrors.InvalidIdToken,
      KnownErrors.SignUpNotEnabled,
      KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse,
      KnownErrors.MultiFactorAuthenticationRequired,
    ],
  }),
  oauthCrossDomainAuthorize: defineEndpoint({
    method: "POST",
    path: "/auth/oauth/cross-domain/authorize",
    summary: "Hand the signed-in session to the project's app on another domain: a one-time code on its redirect_uri",
    tags: ["OAuth"],
    access: ["client", "server", "admin"],
    body: oauthCrossDomainAuthorizeBody,
    response: oauthCrossDomainAuthorizeJson,
    errors: [KnownErrors.UserAuthenticationRequired, KnownErrors.RedirectUrlNotWhitelisted],
  }),
  oauthAuthorize: defineEndpoint({
    method: "GET",
    path: "/auth/oauth/authorize/:provider_id",
    summary:
      "Start an OAuth sign-in (or account link): redirects (307) to the provider, or answers 200 {location} with stack_response_mode=json",
    tags: ["OAuth"],
    access: "public",
    params: oauthProviderParams,
    query: oauthAuthorizeQuery,
    status: 307,
    otherStatuses: [200],
    responseType: "redirect",
    response: oauthAuthorizeJson,
    errors: [
      KnownErrors.InvalidOAuthClientIdOrSecret,
      KnownErrors.InvalidPublishableClientKey,
      KnownErrors.PublishableClientKeyRequiredForProject,
      KnownErrors.BranchDoesNotExist,
      KnownErrors.OAuthProviderNotFoundOrNotEnabled,
      KnownErrors.BotChallengeRequired,
      KnownErrors.BotChallengeFailed,
      KnownErrors.UnparsableAccessToken,
      KnownErrors.AccessTokenExpired,
      KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys,
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.InvalidScope,
    ],
  }),
  oauthCallback: defineEndpoint({
    method: "GET",
    path: "/auth/oauth/callback/:provider_id",
    summary: "Where the provider returns the browser: redirects (303) to the app's redirect_uri with a code, or (307) with an error",
    tags: ["OAuth"],
    access: "public",
    params: oauthProviderParams,
    query: oauthCallbackQuery,
    status: 303,
    otherStatuses: [307],
    responseType: "redirect",
    response: z.string(),
    errors: CALLBACK_ERRORS,
  }),
  oauthCallbackPost: defineEndpoint({
    method: "POST",
    path: "/auth/oauth/callback/:provider_id",
    summary: "The callback for providers that post their answer as a form: redirects (303) to the same callback as a GET",
    tags: ["OAuth"],
    access: "public",
    params: oauthProviderParams,
    query: oauthCallbackQuery,
    body: oauthCallbackBody,
    status: 303,
    otherStatuses: [307],
    responseType: "redirect",
    response: z.string(),
    errors: CALLBACK_ERRORS,
  }),
};
