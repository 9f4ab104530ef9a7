import { teamApiKeysEndpoints } from "@latchkey/shared";
import { isPromise } from "../../../../lib/maybe-async.ts";
import { defineRoute } from "../../../../http/route.ts";
import { checkedApiKeyJson } from "../../domain/check.ts";

export default [
  // A cached key is answered without waiting (lib/maybe-async.ts), with the JSON text kept for it.
  defineRoute(teamApiKeysEndpoints.checkTeamApiKey, ({ auth, body, services }) => {
    const json = checkedApiKeyJson(services, { projectId: auth.project.id, branchId: auth.branchId }, "team", body.api_key);
    return isPromise(json) ? json.then((text) => ({ json: text })) : { json };
  }),
];
