import { metaEndpoints } from "@latchkey/shared";
import { textResponse } from "../http/response.ts";
import { defineRoute } from "../http/route.ts";

/**
 * POST /check-feature-support: clients ask here when they meet a feature this
 * server lacks, and show the sentence to their developer; any caller, with any
 * access or none, gets it.
 */
export default [
  defineRoute(metaEndpoints.checkFeatureSupport, ({ body }) =>
    textResponse(
      200,
      `${body?.feature_name ?? "This feature"} is not yet supported. Please reach out to the operator of this Latchkey server for more information.`,
    ),
  ),
];
