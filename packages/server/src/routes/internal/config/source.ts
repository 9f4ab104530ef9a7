import { SUCCESS, configEndpoints } from "@latchkey/shared";
import { readOverrides } from "../../../domain/config/store.ts";
import { configWriterOf, writeConfigSource } from "../../../domain/config/write.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(configEndpoints.getConfigSource, async ({ auth, services }) => ({
    body: { source: (await readOverrides(services.db, tenancyOf(auth))).source },
  })),
  defineRoute(configEndpoints.unlinkConfigSource, async ({ auth, services }) => {
    await writeConfigSource(configWriterOf(services), tenancyOf(auth), { type: "unlinked" });
    return { body: SUCCESS };
  }),
];
