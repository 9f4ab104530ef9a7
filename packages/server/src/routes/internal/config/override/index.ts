import { SUCCESS, applyConfigOverride, configEndpoints } from "@latchkey/shared";
import { acceptedOverride, configWriterOf, writeConfigOverride } from "../../../../domain/config/write.ts";
import { tenancyOf } from "../../../../http/auth.ts";
import { defineRoute } from "../../../../http/route.ts";

/** The older form of PATCH /internal/config/override/environment. */
export default [
  defineRoute(configEndpoints.updateEnvironmentConfigOverride, async ({ auth, body, services }) => {
    const patch = acceptedOverride("environment", body.config_override_string ?? "{}");
    await writeConfigOverride(configWriterOf(services), tenancyOf(auth), "environment", (stored) => applyConfigOverride(stored, patch));
    return { body: SUCCESS };
  }),
];
