/**
 * User and team API keys: an app hands its own users and teams keys for the
 * app's own API, and its server checks the keys it is given
 * (POST /user-api-keys/check, /team-api-keys/check). Each kind is turned on
 * by a setting. Keys are stored as digests only (schema.ts); the key string
 * has a layout apps and secret scanners recognise (domain/key-string.ts).
 * Checks are answered from the per-process cache (domain/check.ts), which
 * every change to a key (revocation) drops on every replica through the
 * outbox's cache events (cache/caches.ts); when a key was last accepted is
 * written behind, at most once a minute (domain/usage.ts, `apiKeyUsage` in
 * the services). A deleted user's or team's keys go with it (the cascades).
 * Secret scanners revoke a secret key they found in public, and its owner is
 * mailed (POST /integrations/credential-scanning/revoke,
 * domain/credential-scanning.ts).
 *
 * Outside this folder: the wire schemas (`userAndTeamApiKeysEndpoints`) and
 * the known errors are in @latchkey/shared (api/user-team-api-keys.ts,
 * known-errors/api-keys.ts); the SDK's calls in @latchkey/js
 * (models/user-team-api-key.ts and the user, team and server-app objects),
 * and `useApiKeys` in @latchkey/react; the
 * cache of keys in cache/caches.ts; its table's migration in db/migrations/.
 */
import { userAndTeamApiKeysEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { userTeamApiKeys } from "./schema.ts";

export default defineCapability({
  name: "user-team-api-keys",
  contract: userAndTeamApiKeysEndpoints,
  tables: [userTeamApiKeys],
  // The cache follows the keys' own events (cache/cache-events.ts), as every cache does.
  events: { subscribes: [] },
  configKeys: ["apiKeys.enabled.user", "apiKeys.enabled.team"],
  // Nothing to sweep: a key stays listed, revoked or expired, until its owner goes.
  housekeeping: [],
  jobs: [],
});
