import { StatusError, internalApiKeysEndpoints, listOf } from "@latchkey/shared";
import { createKeySet, keySetView, listKeySets, newProjectKey, type ProjectKeyKind } from "../../../domain/api-keys/project-keys.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalApiKeysEndpoints.createInternalApiKey, async ({ auth, body, services }) => {
    const kinds = (
      [
        ["publishable_client_key", body.has_publishable_client_key],
        ["secret_server_key", body.has_secret_server_key],
        ["super_secret_admin_key", body.has_super_secret_admin_key],
      ] as [ProjectKeyKind, boolean][]
    )
      .filter(([, wanted]) => wanted)
      .map(([kind]) => kind);
    if (kinds.length === 0) throw new StatusError(400, "Ask for at least one key: set one of the has_*_key fields to true.");
    // A key born expired is accepted, as the reference accepts it (it then authenticates nothing).
    const values = Object.fromEntries(kinds.map((kind) => [kind, newProjectKey(kind)]));
    const row = await createKeySet(services.db, {
      projectId: auth.project.id,
      description: body.description,
      expiresAt: new Date(body.expires_at_millis),
      values,
    });
    return {
      body: {
        created_at_millis: row.createdAt.getTime(),
        description: row.description,
        expires_at_millis: body.expires_at_millis,
        id: row.id,
        ...values,
      },
    };
  }),
  defineRoute(internalApiKeysEndpoints.listInternalApiKeys, async ({ auth, services }) => {
    const rows = await listKeySets(services.db, auth.project.id);
    return { body: listOf(rows.map(keySetView)) };
  }),
];
