/**
 * What every user object shares: the fields read from the wire view, the
 * update options and their wire names, and what a user object needs from the
 * app that read it. A user object is a snapshot of the user when it was read;
 * its methods write through the API, and the app re-reads the signed-in user
 * afterwards (hooks re-render with the new snapshot).
 */
import type { ClientUserPatchBody, ServerUserPatchBody, UserOAuthProviderJson } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { CacheEntry } from "../cache/entry.ts";
import type { ApiKeyContext, UserApiKey } from "./user-team-api-key.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ContactChannel } from "./contact-channel.ts";
import type { ItemReads } from "./item.ts";
import type { ProductReads } from "./product.ts";
import type { NotificationCategory } from "./notification-category.ts";
import type { OAuthProvider } from "./oauth-provider.ts";
import type { Passkey } from "./passkey.ts";
import type { ClientUserJson, Json } from "./json.ts";
import type { Team } from "./team.ts";
import type { AppTeamAccess } from "./user-teams.ts";

export interface User {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  readonly clientMetadata: Json;
  readonly clientReadOnlyMetadata: Json;
  readonly hasPassword: boolean;
  /** Signs in with the primary e-mail (password or one-time code). */
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly passkeyAuthEnabled: boolean;
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  readonly isRestricted: boolean;
  readonly restrictedReason: { type: string } | null;
  readonly restrictedByAdmin: boolean;
  readonly restrictedByAdminReason: string | null;
  /** The provider accounts: `id` is the provider (`github`, …), `account_id` the user's id there. */
  readonly oauthProviders: readonly UserOAuthProviderJson[];
  readonly selectedTeam: Team | null;
  readonly selectedTeamId: string | null;
}

/**
 * Two-factor: the secret the user's authenticator app holds (20 random bytes
 * make a good one), or null to turn two-factor off. It goes over the wire as
 * `totp_secret_base64`.
 */
interface TotpSecretOption {
  totpMultiFactorSecret?: Uint8Array | null;
}

/**
 * What the signed-in user may change about themselves: the body of
 * `PATCH /users/me` (clientUserPatchBody in @latchkey/shared), in camelCase.
 */
export type UserUpdateOptions = CamelCaseKeys<Omit<ClientUserPatchBody, "totp_secret_base64">> & TotpSecretOption;

/** What a server may change about any user: the body of `PATCH /users/{id}` (serverUserPatchBody), in camelCase. */
export type ServerUserUpdateOptions = CamelCaseKeys<Omit<ServerUserPatchBody, "totp_secret_base64">> & TotpSecretOption;

/** What a user object needs from the app that read it. */
export interface UserContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (current users), else null. */
  session: Session | null;
  /** Tells the app the signed-in user changed, so it reads them again. */
  userChanged(): void;
  signOut(options?: { redirectUrl?: string | URL }): Promise<void>;
  /** Where a mailed verification link leads: the given URL, else the app's e-mail verification page (in browsers). */
  emailVerificationUrl(given: string | undefined): string;
  /** The app's cached lists of this user's contact channels and notification choices. */
  contactChannels(): CacheEntry<ContactChannel[]>;
  notificationCategories(): CacheEntry<NotificationCategory[]>;
  /** The app's cached list of this user's passkeys. */
  passkeys(): CacheEntry<Passkey[]>;
  /** The app's cached list of this user's API keys, and how they reach the API. */
  apiKeys(): CacheEntry<UserApiKey[]>;
  apiKeyContext(): ApiKeyContext & { owner: { type: "user" } };
  /** The app's cached list of this user's OAuth provider accounts. */
  oauthProviders(): CacheEntry<OAuthProvider[]>;
  /** The app's cached answer to "is there an access token of this provider with these scopes (space-separated)?". */
  connectedAccessToken(provider: string, scope: string): CacheEntry<{ accessToken: string } | null>;
  /** Sends the browser through the provider to connect an account (or more scopes) to this user. */
  linkOAuthAccount(provider: string, options: { scopes?: readonly string[]; returnTo?: string }): Promise<never>;
  /** The app's team reads and writes (apps/teams.ts). */
  teams: AppTeamAccess;
  /** The app's cached item reads (apps/items.ts). */
  items: ItemReads;
  /** The app's product reads and changes (apps/products.ts). */
  products: ProductReads;
}

function baseFields(json: ClientUserJson): Omit<User, "selectedTeam"> {
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    emailAuthEnabled: json.auth_with_email,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    isRestricted: json.is_restricted,
    restrictedReason: json.restricted_reason,
    restrictedByAdmin: json.restricted_by_admin,
    restrictedByAdminReason: json.restricted_by_admin_reason,
    // As the server sends them (snake_case): code reading oauth_providers from the API and from the SDK agrees.
    oauthProviders: json.oauth_providers,
    selectedTeamId: json.selected_team_id,
  };
}

/** The one mapping from update options to the wire: by rule, so the schema stays the only list of fields (the secret's bytes become base64). */
export function userUpdateToJson(update: ServerUserUpdateOptions): ServerUserPatchBody {
  const { totpMultiFactorSecret, ...fields } = update;
  const body: ServerUserPatchBody = snakeCaseKeys(fields);
  if (totpMultiFactorSecret !== undefined) body.totp_secret_base64 = totpMultiFactorSecret && bytesToBase64(totpMultiFactorSecret);
  return body;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The fields every user object has, read from the wire view. */
export abstract class UserFields implements User {
  readonly id!: string;
  readonly displayName!: string | null;
  readonly primaryEmail!: string | null;
  readonly primaryEmailVerified!: boolean;
  readonly profileImageUrl!: string | null;
  readonly signedUpAt!: Date;
  readonly clientMetadata!: Json;
  readonly clientReadOnlyMetadata!: Json;
  readonly hasPassword!: boolean;
  readonly emailAuthEnabled!: boolean;
  readonly otpAuthEnabled!: boolean;
  readonly passkeyAuthEnabled!: boolean;
  readonly isMultiFactorRequired!: boolean;
  readonly isAnonymous!: boolean;
  readonly isRestricted!: boolean;
  readonly restrictedReason!: { type: string } | null;
  readonly restrictedByAdmin!: boolean;
  readonly restrictedByAdminReason!: string | null;
  readonly oauthProviders!: readonly UserOAuthProviderJson[];
  readonly selectedTeam!: Team | null;
  readonly selectedTeamId!: string | null;

  /** `teams` makes the selected team's object (a ServerTeam for server access). */
  constructor(json: ClientUserJson, teams: AppTeamAccess, session: Session | null) {
    Object.assign(this, baseFields(json));
    this.selectedTeam = json.selected_team ? teams.team(json.selected_team, session) : null;
  }
}
