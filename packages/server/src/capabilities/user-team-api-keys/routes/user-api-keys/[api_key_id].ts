import { userApiKeysEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { changeKey, readKey } from "../../domain/manage.ts";

export default [
  defineRoute(userApiKeysEndpoints.getUserApiKey, async ({ auth, params, query, services }) => ({
    body: await readKey<"user">(services, auth, params.api_key_id, { type: "user", userIdOrMe: query.user_id }),
  })),
  defineRoute(userApiKeysEndpoints.updateUserApiKey, async ({ auth, body, params, query, services }) => ({
    body: await changeKey<"user">(services, auth, params.api_key_id, { type: "user", userIdOrMe: query.user_id }, body),
  })),
];
