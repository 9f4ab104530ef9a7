import { listOf, userApiKeysEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { createKey, listKeys } from "../../domain/manage.ts";

export default [
  defineRoute(userApiKeysEndpoints.createUserApiKey, async ({ auth, body, services }) => ({
    body: await createKey<"user">(
      services,
      auth,
      { type: "user", userIdOrMe: body.user_id },
      { description: body.description, expiresAtMillis: body.expires_at_millis, isPublic: body.is_public ?? false },
    ),
  })),
  defineRoute(userApiKeysEndpoints.listUserApiKeys, async ({ auth, query, services }) => ({
    body: listOf(await listKeys<"user">(services, auth, { type: "user", userIdOrMe: query.user_id })),
  })),
];
