import { userApiKeysEndpoints } from "@latchkey/shared";
import { isPromise } from "../../../../lib/maybe-async.ts";
import { defineRoute } from "../../../../http/route.ts";
import { checkedApiKeyView } from "../../domain/check.ts";

export default [
  // A cached key is answered without waiting (lib/maybe-async.ts).
  defineRoute(userApiKeysEndpoints.checkUserApiKey, ({ auth, body, services }) => {
    const key = checkedApiKeyView(services, { projectId: auth.project.id, branchId: auth.branchId }, "user", body.api_key);
    return isPromise(key) ? key.then((found) => ({ body: found })) : { body: key };
  }),
];
