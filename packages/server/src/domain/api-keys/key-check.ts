/** Project key checks on the request path, served from the cache when possible. */
import type { Clock } from "../../lib/clock.ts";
import { isPromise, type MaybePromise } from "../../lib/maybe-async.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import type { Services } from "../../services.ts";
import { findLiveKey, isUnexpired, type ProjectKeyKind } from "./project-keys.ts";

/**
 * Whether `key` is a live key of this kind for the project (at once when
 * cached: see lib/maybe-async.ts). Only live keys
 * are cached, and revocation drops them on every replica; expiry is checked
 * on every use.
 */
export function checkProjectKey(services: Services, projectId: string, kind: ProjectKeyKind, key: string): MaybePromise<boolean> {
  if (key.length === 0 || key.length > 200) return false;
  // A publishable key is public by design (it ships in browser code), so the
  // cache may hold it as sent and a hit costs no digest. Secret and admin
  // keys are only ever held as digests.
  if (kind === "publishable_client_key") {
    const entry = services.caches.load(services.caches.projectKeys, `${projectId}:${kind}:as-sent:${key}`, () =>
      findLiveKey(services.db, projectId, kind, sha256Hex(key)),
    );
    return liveNow(entry, services.clock);
  }
  const digest = sha256Hex(key);
  const entry = services.caches.load(services.caches.projectKeys, `${projectId}:${kind}:${digest}`, () =>
    findLiveKey(services.db, projectId, kind, digest),
  );
  return liveNow(entry, services.clock);
}

type CachedKey = { expiresAt: Date | null } | null;

/**
 * Whether the cached or loaded key is live at the clock's time; a cached key answers without a
 * closure made for it (this runs on every request with a key), and the clock is read only for a key that expires.
 */
function liveNow(entry: MaybePromise<CachedKey>, clock: Clock): MaybePromise<boolean> {
  if (isPromise(entry)) return entry.then((found) => isLive(found, clock));
  return isLive(entry, clock);
}

function isLive(key: CachedKey, clock: Clock): boolean {
  return key !== null && (key.expiresAt === null || isUnexpired(key, clock.now()));
}
