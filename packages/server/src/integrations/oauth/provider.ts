/**
 * What Latchkey knows of each OAuth provider, one small file per provider
 * under providers/: where its authorization and token endpoints are, what it
 * is asked for, how the client authenticates at its token endpoint, and how
 * its user-info answers map to a profile. The protocol itself (PKCE, state,
 * token requests, ID-token checks) is openid-client's (client.ts).
 */
import type { OAuthProviderId } from "@latchkey/shared";

/** The user as a provider describes them. */
export interface ProviderUserInfo {
  /** The provider's stable id for the user. */
  accountId: string;
  email: string | null;
  /** Whether the provider vouches that the user owns `email`. */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

/** A project's own OAuth app at the provider (a `standard` provider), or the operator's (a `shared` one). */
export interface OAuthAppSettings {
  clientId: string;
  clientSecret: string;
  /** Facebook Login for Business configuration. */
  facebookConfigId?: string | undefined;
  /** Microsoft Entra tenant (id or domain); personal accounts (`consumers`) when unset. */
  microsoftTenantId?: string | undefined;
}

export interface ProviderEndpoints {
  authorization: string;
  token: string;
  /** OpenID providers: the ID token's issuer and keys. */
  issuer?: string;
  jwksUri?: string;
}

/** Reads the provider's APIs with the user's access token. */
export interface ProviderApi {
  /** GET a JSON resource; a non-2xx answer throws ProviderHttpError. */
  getJson(url: string, headers?: Record<string, string>): Promise<unknown>;
}

export interface UserInfoContext {
  api: ProviderApi;
  /** The checked claims of the ID token, when the provider sent one. */
  idTokenClaims: Record<string, unknown> | undefined;
  settings: OAuthAppSettings;
}

export interface OAuthProviderDefinition {
  id: OAuthProviderId;
  endpoints(settings: OAuthAppSettings): ProviderEndpoints;
  /** Asked for on every sign-in; a project's extra scopes are added to these. */
  baseScopes: readonly string[];
  /** Parameters the authorization URL gets besides the standard ones. */
  extraAuthorizationParams?(settings: OAuthAppSettings): Record<string, string>;
  tokenEndpointAuth: "client_secret_basic" | "client_secret_post";
  /** false for providers that refuse PKCE. */
  pkce: boolean;
  /** How long an access token lives when the token response does not say. */
  defaultAccessTokenLifetimeSeconds?: number;
  userInfo(context: UserInfoContext): Promise<ProviderUserInfo>;
  /** Fixes a token endpoint that answers outside the OAuth standard, before openid-client reads the answer. */
  normalizeTokenResponse?(status: number, json: Record<string, unknown>): TokenAnswer;
  /** The profile is the ID token's claims (the ID token is kept and checked); other providers' ID tokens are dropped unread. */
  readsIdToken?: true;
}

export type TokenAnswer = { status: number; json: Record<string, unknown> };

/**
 * What is changed in a provider's token answers before openid-client reads
 * them, or null for nothing. An ID token the profile does not come from is
 * dropped rather than checked: providers name issuers other than their
 * documented one (Microsoft the user's own tenant, Google at times without
 * the scheme), and a sign-in must not fail on a token nothing reads; the
 * profile comes from the provider's API with the access token instead.
 */
export function tokenAnswerFix(
  definition: OAuthProviderDefinition,
): ((status: number, json: Record<string, unknown>) => TokenAnswer) | null {
  const own = definition.normalizeTokenResponse?.bind(definition);
  if (definition.readsIdToken) return own ?? null;
  return (status, json) => {
    const { id_token: _unread, ...rest } = json;
    return own ? own(status, rest) : { status, json: rest };
  };
}

/** A provider API answered with an error status. */
export class ProviderHttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`The OAuth provider answered ${status} to GET ${url}`);
    this.name = "ProviderHttpError";
  }
}

// Readers for the providers' JSON: a field of an unexpected type counts as missing.

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function stringOf(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Ids some providers send as numbers (GitHub, GitLab). */
export function idOf(value: unknown): string | null {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : stringOf(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The profile as Latchkey takes it: an account id is required (a provider
 * answer without one is a failure, not a user), and an e-mail that is not an
 * address counts as none, unverified.
 */
/** The standard OpenID Connect user info (sub, email, email_verified, name, picture), as Google and LinkedIn send it. */
export function openIdProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  return profile({
    accountId: stringOf(user.sub),
    email: stringOf(user.email),
    emailVerified: user.email_verified === true,
    displayName: stringOf(user.name),
    profileImageUrl: stringOf(user.picture),
  });
}

export function profile(fields: {
  accountId: string | null;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}): ProviderUserInfo {
  if (!fields.accountId) throw new Error("The OAuth provider's user info has no account id");
  const email = fields.email && EMAIL.test(fields.email) ? fields.email : null;
  return {
    accountId: fields.accountId,
    email,
    emailVerified: email !== null && fields.emailVerified,
    displayName: fields.displayName,
    profileImageUrl: fields.profileImageUrl,
  };
}
