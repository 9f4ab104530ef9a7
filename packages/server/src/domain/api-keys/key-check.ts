/** Project key checks on the request path, served from the cache when possible. */
import { mapMaybe, type MaybePromise } from "../../lib/maybe-async.ts";
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
    return mapMaybe(entry, (found) => isUnexpired(found, services.clock.now()));
  }
  const digest = sha256Hex(key);
  const entry = services.caches.load(services.caches.projectKeys, `${projectId}:${kind}:${digest}`, () =>
    findLiveKey(services.db, projectId, kind, digest),
  );
  return mapMaybe(entry, (found) => isUnexpired(found, services.clock.now()));
}
