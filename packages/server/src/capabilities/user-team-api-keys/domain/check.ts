/**
 * Checking a user or team API key, on the request path: answered from the
 * per-process cache when the key was seen before (no database read, no
 * promise: lib/maybe-async.ts). The verdicts, in order: not a key of this
 * project (a malformed string or a wrong checksum is refused before any
 * lookup) → API_KEY_NOT_FOUND; a key of the other kind → WRONG_API_KEY_TYPE;
 * revoked → API_KEY_REVOKED; past its expiry → API_KEY_EXPIRED.
 *
 * The cache keeps a key whatever its state, and every change to it is
 * announced in the change's transaction (keys.ts), which drops it here right
 * after the commit and on other replicas when they hear of it (cache/bus.ts):
 * once a revocation has returned, this process accepts the key no more.
 */
import { KnownErrors, type ApiKeyType } from "@latchkey/shared";
import { hash, timingSafeEqual } from "node:crypto";
import type { Tenancy } from "../../../db/tenancy.ts";
import { isPromise, type MaybePromise } from "../../../lib/maybe-async.ts";
import type { Services } from "../../../services.ts";
import type { UserTeamApiKeyRow } from "../schema.ts";
import { parseApiKeyString } from "./key-string.ts";
import { apiKeyView, findApiKey } from "./keys.ts";

export function checkApiKey(services: Services, t: Tenancy, type: ApiKeyType, value: string): MaybePromise<UserTeamApiKeyRow> {
  const parsed = parseApiKeyString(value);
  if (!parsed) throw new KnownErrors.ApiKeyNotFound();
  // The kind a key string names is its row's; whether it is the kind asked for is the verdict's to say.
  const entry = services.caches.load(services.caches.apiKeys, `${t.projectId}:${t.branchId}:${parsed.id}`, () =>
    findApiKey(services.db, t, parsed.type, parsed.id),
  );
  return isPromise(entry) ? entry.then((row) => verdict(services, type, value, row)) : verdict(services, type, value, entry);
}

function verdict(services: Services, type: ApiKeyType, value: string, row: UserTeamApiKeyRow | null): UserTeamApiKeyRow {
  if (row === null || !matchesDigest(row, value)) throw new KnownErrors.ApiKeyNotFound();
  if (row.type !== type) throw new KnownErrors.WrongApiKeyType(type, row.type);
  if (row.manuallyRevokedAt !== null) throw new KnownErrors.ApiKeyRevoked();
  const now = services.clock.now();
  if (row.expiresAt !== null && row.expiresAt.getTime() < now) throw new KnownErrors.ApiKeyExpired();
  services.apiKeyUsage.touch(row.id, now);
  return row;
}

/** A cached row's digest as bytes, decoded once (a cached row is never changed in place: a change replaces it). */
const digests = new WeakMap<UserTeamApiKeyRow, Buffer>();

function matchesDigest(row: UserTeamApiKeyRow, value: string): boolean {
  let stored = digests.get(row);
  if (stored === undefined) digests.set(row, (stored = Buffer.from(row.valueDigest, "hex")));
  // The one-shot hash (Node 20.12+): no Hash object per check.
  const given = hash("sha256", value, "buffer");
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** In constant time: how much of a guessed key was right must not show in the answer's timing. */
export function sameDigest(storedHex: string, givenHex: string): boolean {
  const stored = Buffer.from(storedHex, "hex");
  const given = Buffer.from(givenHex, "hex");
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/**
 * The check's answer, the key's read shape, as JSON text: kept with the row, so a cached key is answered
 * without building or serializing it again (a cached row is never changed in place: a change replaces it).
 */
const answers = new WeakMap<UserTeamApiKeyRow, string>();

export function checkedApiKeyJson(services: Services, t: Tenancy, type: ApiKeyType, value: string): MaybePromise<string> {
  const row = checkApiKey(services, t, type, value);
  return isPromise(row) ? row.then(answerOf) : answerOf(row);
}

function answerOf(row: UserTeamApiKeyRow): string {
  let json = answers.get(row);
  if (json === undefined) answers.set(row, (json = JSON.stringify(apiKeyView(row))));
  return json;
}
