/**
 * What the endpoints do, with who may do it. A client acts for its own user
 * only (no user: USER_AUTHENTICATION_REQUIRED; another user: 403 in plain
 * text); its team permission (`$manage_api_keys`) was checked before the
 * handler, from the endpoint's declaration. Server and admin callers may act
 * for any user or team of the project. Reads of one key find the key first:
 * one that is not there, or not of the user or team named, is
 * API_KEY_NOT_FOUND whoever asks.
 */
import {
  CLIENT_OWN_API_KEYS_ONLY,
  KnownErrors,
  StatusError,
  USER_ID_REQUIRED_FOR_USER_API_KEYS,
  type AccessType,
  type ApiKeyType,
  type ApiKeyUpdateBody,
  type TeamApiKeyFirstViewJson,
  type TeamApiKeyJson,
  type UserApiKeyFirstViewJson,
  type UserApiKeyJson,
} from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import type { UserTeamApiKeyRow } from "../schema.ts";
import { apiKeyView, createApiKey, findApiKey, listApiKeys, updateApiKey, type NewApiKey, type Owner } from "./keys.ts";

/** Who is asking (the request's authentication has this shape). */
export interface Caller {
  project: { id: string };
  branchId: string;
  type: AccessType;
  /** The signed-in user, if any. */
  user: { id: string } | null;
}

function tenancyOfCaller(caller: Caller): Tenancy {
  return { projectId: caller.project.id, branchId: caller.branchId };
}

/** The read shape of a key of kind T, and the shape that creates it. */
export type KeyJsonOf<T extends ApiKeyType> = T extends "user" ? UserApiKeyJson : TeamApiKeyJson;
export type FirstViewOf<T extends ApiKeyType> = T extends "user" ? UserApiKeyFirstViewJson : TeamApiKeyFirstViewJson;
/** How a request names the owner: the user (`me` or an id) or the team. */
export type OwnerRef<T extends ApiKeyType> = T extends "user" ? { type: "user"; userIdOrMe: string } : { type: "team"; teamId: string };
/** How a read of one key names its owner: a user key's request may leave its user out. */
export type NamedOwner<T extends ApiKeyType> = T extends "user"
  ? { type: "user"; userIdOrMe: string | undefined }
  : { type: "team"; teamId: string };

function viewOf<T extends ApiKeyType>(row: UserTeamApiKeyRow): KeyJsonOf<T> {
  return apiKeyView(row) as KeyJsonOf<T>;
}

/** The user a request names (`me` or an id), as the caller may name them. */
function namedUser(caller: Caller, userIdOrMe: string): string {
  const own = caller.user?.id ?? null;
  if (caller.type === "client") {
    if (own === null) throw new KnownErrors.UserAuthenticationRequired();
    if (userIdOrMe !== "me" && userIdOrMe !== own) throw new StatusError(403, CLIENT_OWN_API_KEYS_ONLY);
    return own;
  }
  if (userIdOrMe !== "me") return userIdOrMe;
  if (own === null) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return own;
}

function resolveOwner(caller: Caller, owner: OwnerRef<"user"> | OwnerRef<"team">): Owner {
  return owner.type === "user" ? { type: "user", userId: namedUser(caller, owner.userIdOrMe) } : owner;
}

export async function createKey<T extends ApiKeyType>(
  services: Services,
  caller: Caller,
  owner: OwnerRef<T>,
  input: NewApiKey,
): Promise<FirstViewOf<T>> {
  const { row, value } = await createApiKey(services, tenancyOfCaller(caller), resolveOwner(caller, owner), input);
  return { ...apiKeyView(row), value } as FirstViewOf<T>;
}

export async function listKeys<T extends ApiKeyType>(services: Services, caller: Caller, named: NamedOwner<T>): Promise<KeyJsonOf<T>[]> {
  const owner: NamedOwner<"user"> | NamedOwner<"team"> = named;
  if (owner.type === "user" && owner.userIdOrMe === undefined) throw new KnownErrors.SchemaError(USER_ID_REQUIRED_FOR_USER_API_KEYS);
  const resolved = resolveOwner(caller, owner as OwnerRef<"user"> | OwnerRef<"team">);
  // The checks noted so far show in what is read.
  await services.apiKeyUsage.flush();
  return (await listApiKeys(services.db, tenancyOfCaller(caller), resolved)).map((row) => viewOf<T>(row));
}

/** The key with this id, of the user or team the request names. */
async function namedKey(services: Services, caller: Caller, keyId: string, named: NamedOwner<"user"> | NamedOwner<"team">) {
  await services.apiKeyUsage.flush();
  const row = await findApiKey(services.db, tenancyOfCaller(caller), named.type, keyId);
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  if (named.type === "team") {
    if (row.teamId !== named.teamId) throw new KnownErrors.ApiKeyNotFound();
    return row;
  }
  if (caller.type === "client") {
    if (caller.user === null) throw new KnownErrors.UserAuthenticationRequired();
    if (row.userId !== caller.user.id) throw new StatusError(403, CLIENT_OWN_API_KEYS_ONLY);
  }
  if (named.userIdOrMe !== undefined && namedUser(caller, named.userIdOrMe) !== row.userId) throw new KnownErrors.ApiKeyNotFound();
  return row;
}

export async function readKey<T extends ApiKeyType>(
  services: Services,
  caller: Caller,
  keyId: string,
  named: NamedOwner<T>,
): Promise<KeyJsonOf<T>> {
  return viewOf<T>(await namedKey(services, caller, keyId, named));
}

export async function changeKey<T extends ApiKeyType>(
  services: Services,
  caller: Caller,
  keyId: string,
  named: NamedOwner<T>,
  change: ApiKeyUpdateBody,
): Promise<KeyJsonOf<T>> {
  const row = await namedKey(services, caller, keyId, named);
  return viewOf<T>(await updateApiKey(services.db, services, tenancyOfCaller(caller), row, change));
}
