import { credentialScanningEndpoints, SUCCESS } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";
import { revokeLeakedApiKey } from "../../../domain/credential-scanning.ts";

export default [
  defineRoute(credentialScanningEndpoints.revokeLeakedApiKey, async ({ body, services }) => {
    await revokeLeakedApiKey(services, body.api_key);
    return { body: SUCCESS };
  }),
];
