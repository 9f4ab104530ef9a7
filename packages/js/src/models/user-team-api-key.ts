/**
 * API keys of a user or a team (the keys an app hands its own users and
 * teams; the project's own keys are internal-api-keys, models/api-key.ts).
 * The full key is in the object `createApiKey` answers, once; listed keys
 * show its last four characters. A key object's methods act through the API
 * for the user or team it belongs to, as the app that read it.
 */
import type {
  ApiKeyType,
  ApiKeyUpdateBody,
  TeamApiKeyFirstViewJson,
  TeamApiKeyJson,
  UserApiKeyFirstViewJson,
  UserApiKeyJson,
} from "@latchkey/shared/api/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";

export type { ApiKeyType };

export interface ApiKeyCreationOptions {
  description: string;
  /** null: never expires. */
  expiresAt: Date | null;
  /** A public key is meant to be seen (shipped in a page, say): credential scanners do not revoke it. */
  isPublic?: boolean;
}

/** Only the description changes; revoking is for good, and the expiry is fixed at creation (the server refuses others). */
export interface ApiKeyUpdateOptions {
  description?: string;
  revoked?: true;
}

interface ApiKeyBase<FirstView extends boolean> {
  readonly id: string;
  readonly description: string;
  /** Absent for a key that never expires. */
  readonly expiresAt?: Date;
  readonly manuallyRevokedAt: Date | null;
  readonly createdAt: Date;
  readonly isPublic: boolean;
  /** When a check last accepted the key (to the minute), or null. */
  readonly lastUsedAt: Date | null;
  /** The whole key in the object `createApiKey` answers; afterwards its last four characters. */
  readonly value: FirstView extends true ? string : { lastFour: string };
  update(options: ApiKeyUpdateOptions): Promise<void>;
  revoke(): Promise<void>;
  isValid(): boolean;
  /** Revoked first: a revoked key that has also expired is "manually-revoked". */
  whyInvalid(): "manually-revoked" | "expired" | null;
}

export type UserApiKey = ApiKeyBase<false> & { readonly type: "user"; readonly userId: string };
export type UserApiKeyFirstView = ApiKeyBase<true> & { readonly type: "user"; readonly userId: string };
export type TeamApiKey = ApiKeyBase<false> & { readonly type: "team"; readonly teamId: string };
export type TeamApiKeyFirstView = ApiKeyBase<true> & { readonly type: "team"; readonly teamId: string };
/** Either kind, as `…/check` answers it. */
export type ApiKey = UserApiKey | TeamApiKey;

type AnyKeyJson = UserApiKeyJson | TeamApiKeyJson | UserApiKeyFirstViewJson | TeamApiKeyFirstViewJson;

/** How a user's or a team's keys reach the API. */
export interface ApiKeyContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** Whose keys: `me` or a user's id; or a team's id. */
  owner: { type: "user"; userIdOrMe: string } | { type: "team"; teamId: string };
  /** The owner's keys changed (the app reads its cached list again). */
  changed(): void;
}

function caller(context: ApiKeyContext) {
  return { accessType: context.accessType, session: context.session };
}

/** The key object of a wire key (`UserApiKeyJson` and the like). */
export function apiKeyFromJson(json: UserApiKeyJson | UserApiKeyFirstViewJson, context: ApiKeyContext): UserApiKey | UserApiKeyFirstView;
export function apiKeyFromJson(json: TeamApiKeyJson | TeamApiKeyFirstViewJson, context: ApiKeyContext): TeamApiKey | TeamApiKeyFirstView;
export function apiKeyFromJson(json: AnyKeyJson, context: ApiKeyContext): ApiKey | UserApiKeyFirstView | TeamApiKeyFirstView;
export function apiKeyFromJson(json: AnyKeyJson, context: ApiKeyContext): ApiKey | UserApiKeyFirstView | TeamApiKeyFirstView {
  const manuallyRevokedAt = json.manually_revoked_at_millis === undefined ? null : new Date(json.manually_revoked_at_millis);
  const expiresAt = json.expires_at_millis === undefined ? undefined : new Date(json.expires_at_millis);
  const whyInvalid = (): "manually-revoked" | "expired" | null =>
    manuallyRevokedAt !== null ? "manually-revoked" : expiresAt !== undefined && expiresAt.getTime() < Date.now() ? "expired" : null;
  const update = async (options: ApiKeyUpdateOptions) => {
    await updateApiKey(context, json.id, options);
  };
  const base = {
    id: json.id,
    description: json.description,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    manuallyRevokedAt,
    createdAt: new Date(json.created_at_millis),
    isPublic: json.is_public,
    lastUsedAt: json.last_used_at_millis === undefined ? null : new Date(json.last_used_at_millis),
    value: typeof json.value === "string" ? json.value : { lastFour: json.value.last_four },
    update,
    revoke: () => update({ revoked: true }),
    isValid: () => whyInvalid() === null,
    whyInvalid,
  };
  // `value` is the whole key exactly when the JSON is a first view: the overloads above say which.
  const key =
    json.type === "user"
      ? { ...base, type: "user" as const, userId: json.user_id }
      : { ...base, type: "team" as const, teamId: json.team_id };
  return key as ApiKey | UserApiKeyFirstView | TeamApiKeyFirstView;
}

function updateBody(options: ApiKeyUpdateOptions): ApiKeyUpdateBody {
  return {
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.revoked === undefined ? {} : { revoked: options.revoked }),
  };
}

async function updateApiKey(context: ApiKeyContext, id: string, options: ApiKeyUpdateOptions): Promise<void> {
  const owner = context.owner;
  if (owner.type === "user") {
    await context.api.call("PATCH /user-api-keys/:api_key_id", {
      ...caller(context),
      params: { api_key_id: id },
      query: { user_id: owner.userIdOrMe },
      body: updateBody(options),
    });
  } else {
    await context.api.call("PATCH /team-api-keys/:api_key_id", {
      ...caller(context),
      params: { api_key_id: id },
      query: { team_id: owner.teamId },
      body: updateBody(options),
    });
  }
  context.changed();
}

function creationBody(options: ApiKeyCreationOptions) {
  return {
    description: options.description,
    expires_at_millis: options.expiresAt === null ? null : options.expiresAt.getTime(),
    ...(options.isPublic === undefined ? {} : { is_public: options.isPublic }),
  };
}

export async function createUserApiKey(context: ApiKeyContext & { owner: { type: "user" } }, options: ApiKeyCreationOptions) {
  const json = await context.api.call("POST /user-api-keys", {
    ...caller(context),
    body: { ...creationBody(options), user_id: context.owner.userIdOrMe },
  });
  context.changed();
  return apiKeyFromJson(json, context) as UserApiKeyFirstView;
}

export async function listUserApiKeys(context: ApiKeyContext & { owner: { type: "user" } }): Promise<UserApiKey[]> {
  const body = await context.api.call("GET /user-api-keys", { ...caller(context), query: { user_id: context.owner.userIdOrMe } });
  return body.items.map((json) => apiKeyFromJson(json, context) as UserApiKey);
}

export async function createTeamApiKey(context: ApiKeyContext & { owner: { type: "team" } }, options: ApiKeyCreationOptions) {
  const json = await context.api.call("POST /team-api-keys", {
    ...caller(context),
    body: { ...creationBody(options), team_id: context.owner.teamId },
  });
  context.changed();
  return apiKeyFromJson(json, context) as TeamApiKeyFirstView;
}

export async function listTeamApiKeys(context: ApiKeyContext & { owner: { type: "team" } }): Promise<TeamApiKey[]> {
  const body = await context.api.call("GET /team-api-keys", { ...caller(context), query: { team_id: context.owner.teamId } });
  return body.items.map((json) => apiKeyFromJson(json, context) as TeamApiKey);
}
