import { SUCCESS, configEndpoints, resetConfigOverrideKeys } from "@latchkey/shared";
import { configWriterOf, writeConfigOverride } from "../../../../../domain/config/write.ts";
import { tenancyOf } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";

export default [
  defineRoute(configEndpoints.resetConfigOverrideKeys, async ({ auth, body, params, services }) => {
    await writeConfigOverride(configWriterOf(services), tenancyOf(auth), params.level, (stored) =>
      resetConfigOverrideKeys(stored, body.keys),
    );
    return { body: SUCCESS };
  }),
];
