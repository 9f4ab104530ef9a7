/** The numbers both sides (server and SDK) agree on: limits, lengths and lifetimes. */

/** Where the API is served on the server's origin: every endpoint's path is under it. */
export const API_PREFIX = "/api/v1";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;
/**
 * The highest bcrypt cost an imported `password_hash` may have, as the
 * reference allows: each step doubles the work of every sign-in check, and a
 * cost of 31 would keep a thread busy for days per attempt.
 */
export const BCRYPT_MAX_COST = 16;
export const EMAIL_MAX_LENGTH = 256;
export const DISPLAY_NAME_MAX_LENGTH = 256;
export const URL_MAX_LENGTH = 1_000_000;
export const ID_NAME_MAX_LENGTH = 63;
export const BRANCH_ID_MAX_LENGTH = 255;
/**
 * Request bodies larger than this are refused before they are read whole (a
 * body is otherwise held in memory). Well above any valid body: the largest
 * field, a URL of 1,000,000 characters, is at most 6 MB as escaped JSON.
 */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;
/** Profile images (usually data URLs) must stay under 100 KB. */
export const PROFILE_IMAGE_MAX_BYTES = 100 * 1024;

export const ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS = 10 * 60 * 1000;
export const REFRESH_TOKEN_LENGTH = 45;

/** Every one-time code: 45 lowercase Crockford base32 characters. */
export const VERIFICATION_CODE_LENGTH = 45;
/** An e-mailed sign-in code shows its first 6 characters; the other 39 are the nonce the client keeps. */
export const OTP_DISPLAYED_LENGTH = 6;
/** Submissions counted against every code sharing a nonce; at this many, the codes are refused. */
export const VERIFICATION_CODE_MAX_ATTEMPTS = 20;
export const EMAIL_CODE_EXPIRATION_MILLIS = 7 * 24 * 3600 * 1000;
/** TOTP (RFC 6238) as authenticator apps use it: 6 digits, 30-second steps; secrets made by clients are 20 bytes, at least 16 accepted. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_SECRET_BYTES = 20;
export const TOTP_SECRET_MIN_BYTES = 16;
/** A sign-in that needs a second factor answers with an attempt code that lives this long. */
export const MFA_ATTEMPT_EXPIRATION_MILLIS = 5 * 60 * 1000;
/** A passkey ceremony's challenge (the authenticator's own timeout is 60 s; a little slack for the round trip). */
export const PASSKEY_CHALLENGE_EXPIRATION_MILLIS = 65_000;
export const PASSKEY_CEREMONY_TIMEOUT_MILLIS = 60_000;
/** The relying-party id the server puts in passkey options; the client replaces it with its own hostname. */
export const PASSKEY_RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";
/** A CLI login request's lifetime: by default, and the most a CLI may ask for. */
export const CLI_AUTH_DEFAULT_EXPIRATION_MILLIS = 2 * 3600 * 1000;
export const CLI_AUTH_MAX_EXPIRATION_MILLIS = 24 * 3600 * 1000;
/** How long the SDK waits between two polls of a CLI login. */
export const CLI_POLL_INTERVAL_MILLIS = 2000;
export const DEFAULT_SESSION_EXPIRATION_MILLIS = 31_536_000_000;
export const MAX_SESSION_EXPIRATION_MILLIS = 31_708_800_000;

/** The SDK reuses an access token with at least this much life left. */
export const ACCESS_TOKEN_FRESHNESS_MILLIS = 20_000;
export const MAX_ACCESS_TOKEN_FRESHNESS_REQUIREMENT_MILLIS = 60_000;

/** The SDK's cache: an entry is dropped this long after its last subscriber left; reads of one entry start at least this far apart. */
export const SDK_CACHE_DROP_AFTER_MILLIS = 5000;
export const SDK_CACHE_THROTTLE_MILLIS = 300;

export const REFRESH_COOKIE_MAX_AGE_SECONDS = 31_536_000;
export const ACCESS_COOKIE_MAX_AGE_SECONDS = 86_400;
export const OAUTH_STATE_COOKIE_MAX_AGE_SECONDS = 3_600;

export const NETWORK_RETRY_MAX_ATTEMPTS = 5;
export const NETWORK_RETRY_BASE_DELAY_MILLIS = 1000;
export const MAX_TIMEOUT_MILLIS = 2_147_483_647;

export const INTERNAL_PROJECT_ID = "internal";
export const DEFAULT_BRANCH_ID = "main";
export const INTERNAL_PROJECT_DISPLAY_NAME = "Latchkey Dashboard";
export const DEFAULT_EMAIL_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
/** The other built-in themes every project has (their ids are fixed, like the templates'). */
export const DARK_EMAIL_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";
export const COLORFUL_EMAIL_THEME_ID = "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f";

/**
 * Built-in templates: every project has one of each, under these ids, which admins may edit. The ids are
 * the ones clients of the wire contract already know, so a template written elsewhere can be pasted in place.
 */
export const DEFAULT_EMAIL_TEMPLATE_IDS = {
  email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  sign_in_code: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
  sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
} as const;

/** Notification categories: both enabled by default; transactional mail cannot be turned off. */
export const NOTIFICATION_CATEGORIES = [
  { id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", name: "Transactional", canDisable: false },
  { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", canDisable: true },
] as const;
/** `client_secret` accepted by the token endpoint when a project needs no publishable key. */
export const PUBLIC_CLIENT_SECRET_SENTINEL = "__stack_public_client__";

export const CURRENCIES = { USD: 2, EUR: 2, GBP: 2, INR: 2, AUD: 2, CAD: 2, JPY: 0 } as const;
export type Currency = keyof typeof CURRENCIES;

/** Who can own items and products: a user, a team, or an id the app chooses (never checked). */
export const CUSTOMER_TYPES = ["user", "team", "custom"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

export const OAUTH_PROVIDER_IDS = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "twitch",
] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

export const ACCESS_TYPES = ["client", "server", "admin"] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

export const OAUTH_ACCOUNT_MERGE_STRATEGIES = ["link_method", "raise_error", "allow_duplicates"] as const;

/** AES-GCM runs with a 12-byte IV, and keys derived for it with a 16-byte salt. */
export const AES_GCM_IV_BYTES = 12;
export const ENCRYPTION_SALT_BYTES = 16;
/** PBKDF2 iterations of the data vault's key derivation (packages/js/src/apps/data-vault-crypto.ts). */
export const DATA_VAULT_KEY_DERIVATION_ITERATIONS = 100_000;
/** What the SDK throws when a data vault value does not decrypt (GCM refuses it). */
export const DATA_VAULT_DECRYPTION_FAILED_MESSAGE =
  "Data vault client-side decryption failed. Are you sure you're using the correct secret?";
/** The SDK refuses a data vault secret that is not a string. */
export const DATA_VAULT_SECRET_NOT_STRING_MESSAGE = "Data vault secret must be a string.";
