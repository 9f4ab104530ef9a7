import { KnownErrors, StatusError, internalApiKeysEndpoints } from "@latchkey/shared";
import { describeKeySet, findKeySet, keySetView, revokeKeySet } from "../../../domain/api-keys/project-keys.ts";
import type { RequestAuth } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import type { Services } from "../../../services.ts";

async function requireKeySet(services: Services, auth: RequestAuth, id: string) {
  const row = await findKeySet(services.db, auth.project.id, id);
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  return row;
}

export default [
  defineRoute(internalApiKeysEndpoints.getInternalApiKey, async ({ auth, params, services }) => ({
    body: keySetView(await requireKeySet(services, auth, params.api_key_id)),
  })),
  defineRoute(internalApiKeysEndpoints.updateInternalApiKey, async ({ auth, params, body, services }) => {
    const row = await requireKeySet(services, auth, params.api_key_id);
    if (body.revoked === false && row.manuallyRevokedAt) {
      throw new StatusError(400, "A revoked key cannot be restored. Create a new key instead.");
    }
    if (body.description !== undefined) {
      await describeKeySet(services.db, auth.project.id, row.id, body.description);
    }
    if (body.revoked) {
      await revokeKeySet(services.db, services.events, auth.project.id, row.id, services.clock.date());
    }
    return { body: keySetView(await requireKeySet(services, auth, row.id)) };
  }),
];
