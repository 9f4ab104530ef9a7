/**
 * API keys an app hands its own users and teams (for the app's own API: a
 * CLI, an integration), as opposed to the project keys of api-keys.ts. The
 * full key is answered once, by the call that creates it; afterwards only its
 * last four characters. A server checks a key it was given with `…/check`.
 *
 * Each kind is turned on by its setting (`apiKeys.enabled.user|team`); off,
 * every endpoint of the kind answers 400 in plain text before anything else
 * but the request's validation. A client manages its own user's keys, and a
 * team's keys when it holds `$manage_api_keys` there; a team it may not see
 * answers API_KEY_NOT_FOUND, as a key it may not see does.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint, type SettingGate } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

export const API_KEY_TYPES = ["user", "team"] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

export const USER_API_KEYS_OFF = "User API keys are not enabled for this project.";
export const TEAM_API_KEYS_OFF = "Team API keys are not enabled for this project.";
/** A client naming another user (403, plain text). */
export const CLIENT_OWN_API_KEYS_ONLY = "Client can only manage their own api keys";
/** Listing user keys without naming the user: a SCHEMA_ERROR whose message is this sentence alone. */
export const USER_ID_REQUIRED_FOR_USER_API_KEYS = "user_id is required for user API keys";

const lastFourJson = z.strictObject({ last_four: z.string() });

const keyFields = {
  created_at_millis: z.number(),
  description: z.string(),
  /** Omitted for a key that never expires. */
  expires_at_millis: z.number().optional(),
  id: z.string(),
  /** A public key is meant to be seen (in a browser, say): credential scanners may not revoke it. */
  is_public: z.boolean(),
  /** Omitted until the key is revoked. */
  manually_revoked_at_millis: z.number().optional(),
  /** When a check last accepted the key, to the minute; omitted until then. */
  last_used_at_millis: z.number().optional(),
};

export const userApiKeyJson = z.strictObject({ ...keyFields, type: z.literal("user"), user_id: z.string(), value: lastFourJson });
export type UserApiKeyJson = z.infer<typeof userApiKeyJson>;
export const teamApiKeyJson = z.strictObject({ ...keyFields, type: z.literal("team"), team_id: z.string(), value: lastFourJson });
export type TeamApiKeyJson = z.infer<typeof teamApiKeyJson>;

/** The answer that creates a key: the key in full, this once. */
export const userApiKeyFirstViewJson = userApiKeyJson.extend({ value: z.string() });
export type UserApiKeyFirstViewJson = z.infer<typeof userApiKeyFirstViewJson>;
export const teamApiKeyFirstViewJson = teamApiKeyJson.extend({ value: z.string() });
export type TeamApiKeyFirstViewJson = z.infer<typeof teamApiKeyFirstViewJson>;

const createFields = {
  description: z.string(),
  /** Required; null or 0: never expires. A time already past is accepted (the key is born expired). */
  expires_at_millis: z.number().nullable(),
  is_public: z.boolean().optional(),
};

export const userApiKeyCreateBody = z.strictObject({ ...createFields, user_id: userIdOrMeSchema });
export type UserApiKeyCreateBody = z.input<typeof userApiKeyCreateBody>;
export const teamApiKeyCreateBody = z.strictObject({ ...createFields, team_id: uuidSchema });
export type TeamApiKeyCreateBody = z.input<typeof teamApiKeyCreateBody>;

/** Only the description changes; revoking is one way, and the expiry is fixed at creation. */
export const apiKeyUpdateBody = z.strictObject({
  description: z.string().optional(),
  revoked: z.literal(true).optional(),
});
export type ApiKeyUpdateBody = z.input<typeof apiKeyUpdateBody>;

export const apiKeyCheckBody = z.strictObject({ api_key: z.string() });
export type ApiKeyCheckBody = z.input<typeof apiKeyCheckBody>;

const keyParams = z.strictObject({ api_key_id: uuidSchema });
/** Whose keys: optional on reads of one key (the key names its user), required to list (checked by the handler, see above). */
const userQuery = z.strictObject({ user_id: userIdOrMeSchema.optional() });
const teamQuery = z.strictObject({ team_id: uuidSchema });

const userGate: SettingGate = { isOn: (config) => config.apiKeys.enabled.user, offMessage: USER_API_KEYS_OFF };
const teamGate: SettingGate = { isOn: (config) => config.apiKeys.enabled.team, offMessage: TEAM_API_KEYS_OFF };

const ANY = ["client", "server", "admin"] as const;
const SERVER = ["server", "admin"] as const;
const USER_TAGS = ["User API keys"];
const TEAM_TAGS = ["Team API keys"];
const CHECK_ERRORS = [KnownErrors.ApiKeyNotFound, KnownErrors.WrongApiKeyType, KnownErrors.ApiKeyRevoked, KnownErrors.ApiKeyExpired];

/** A client needs `$manage_api_keys` in the team; a team it may not manage looks like a key that does not exist. */
function manageTeamKeys(teamIdIn: "query" | "body") {
  return { permissions: ["$manage_api_keys"], teamIdIn, refusal: KnownErrors.ApiKeyNotFound } as const;
}

export const userApiKeysEndpoints = {
  createUserApiKey: defineEndpoint({
    method: "POST",
    path: "/user-api-keys",
    summary: "Create an API key for a user; the full key is answered only here",
    tags: USER_TAGS,
    access: ANY,
    enabledBy: userGate,
    body: userApiKeyCreateBody,
    response: userApiKeyFirstViewJson,
    errors: [KnownErrors.UserAuthenticationRequired, KnownErrors.UserNotFound],
  }),
  listUserApiKeys: defineEndpoint({
    method: "GET",
    path: "/user-api-keys",
    summary: "List a user's API keys, newest first, revoked and expired ones included",
    tags: USER_TAGS,
    access: ANY,
    enabledBy: userGate,
    query: userQuery,
    response: listJson(userApiKeyJson),
    errors: [KnownErrors.UserAuthenticationRequired],
  }),
  getUserApiKey: defineEndpoint({
    method: "GET",
    path: "/user-api-keys/:api_key_id",
    summary: "Get one of a user's API keys",
    tags: USER_TAGS,
    access: ANY,
    enabledBy: userGate,
    params: keyParams,
    query: userQuery,
    response: userApiKeyJson,
    errors: [KnownErrors.ApiKeyNotFound, KnownErrors.UserAuthenticationRequired],
  }),
  updateUserApiKey: defineEndpoint({
    method: "PATCH",
    path: "/user-api-keys/:api_key_id",
    summary: "Change a user's API key's description, or revoke it (for good)",
    tags: USER_TAGS,
    access: ANY,
    enabledBy: userGate,
    params: keyParams,
    query: userQuery,
    body: apiKeyUpdateBody,
    response: userApiKeyJson,
    errors: [KnownErrors.ApiKeyNotFound, KnownErrors.UserAuthenticationRequired],
  }),
  checkUserApiKey: defineEndpoint({
    method: "POST",
    path: "/user-api-keys/check",
    summary: "Check a user API key: the key's object when it may be used, else why not",
    tags: USER_TAGS,
    access: SERVER,
    enabledBy: userGate,
    body: apiKeyCheckBody,
    response: userApiKeyJson,
    errors: CHECK_ERRORS,
  }),
};

export const teamApiKeysEndpoints = {
  createTeamApiKey: defineEndpoint({
    method: "POST",
    path: "/team-api-keys",
    summary: "Create an API key for a team; the full key is answered only here",
    tags: TEAM_TAGS,
    access: ANY,
    enabledBy: teamGate,
    teamPermission: manageTeamKeys("body"),
    body: teamApiKeyCreateBody,
    response: teamApiKeyFirstViewJson,
    errors: [KnownErrors.TeamNotFound],
  }),
  listTeamApiKeys: defineEndpoint({
    method: "GET",
    path: "/team-api-keys",
    summary: "List a team's API keys, newest first, revoked and expired ones included",
    tags: TEAM_TAGS,
    access: ANY,
    enabledBy: teamGate,
    teamPermission: manageTeamKeys("query"),
    query: teamQuery,
    response: listJson(teamApiKeyJson),
  }),
  getTeamApiKey: defineEndpoint({
    method: "GET",
    path: "/team-api-keys/:api_key_id",
    summary: "Get one of a team's API keys",
    tags: TEAM_TAGS,
    access: ANY,
    enabledBy: teamGate,
    teamPermission: manageTeamKeys("query"),
    params: keyParams,
    query: teamQuery,
    response: teamApiKeyJson,
  }),
  updateTeamApiKey: defineEndpoint({
    method: "PATCH",
    path: "/team-api-keys/:api_key_id",
    summary: "Change a team's API key's description, or revoke it (for good)",
    tags: TEAM_TAGS,
    access: ANY,
    enabledBy: teamGate,
    teamPermission: manageTeamKeys("query"),
    params: keyParams,
    query: teamQuery,
    body: apiKeyUpdateBody,
    response: teamApiKeyJson,
  }),
  checkTeamApiKey: defineEndpoint({
    method: "POST",
    path: "/team-api-keys/check",
    summary: "Check a team API key: the key's object when it may be used, else why not",
    tags: TEAM_TAGS,
    access: SERVER,
    enabledBy: teamGate,
    body: apiKeyCheckBody,
    response: teamApiKeyJson,
    errors: CHECK_ERRORS,
  }),
};

/**
 * For secret scanners (a code host's, say) that found a key in public: no
 * authentication, the key is its own proof. A secret key is revoked and its
 * owner told by e-mail; a public key (`pk_`) is meant to be seen and is not.
 */
export const credentialScanningEndpoints = {
  revokeLeakedApiKey: defineEndpoint({
    method: "POST",
    path: "/integrations/credential-scanning/revoke",
    summary: "Revoke a user or team API key found in public (secret keys only), and tell its owner",
    tags: ["User API keys", "Team API keys"],
    access: "public",
    body: apiKeyCheckBody,
    response: successJson,
    errors: [KnownErrors.ApiKeyNotFound, KnownErrors.PublicApiKeyCannotBeRevoked],
  }),
};

/** Both kinds, and the scanners' revocation: one capability serves them (server capabilities/user-team-api-keys). */
export const userAndTeamApiKeysEndpoints = { ...userApiKeysEndpoints, ...teamApiKeysEndpoints, ...credentialScanningEndpoints };
