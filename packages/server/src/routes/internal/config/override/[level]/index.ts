import { SUCCESS, StatusError, applyConfigOverride, configEndpoints, type ConfigLevel } from "@latchkey/shared";
import { maskOverrideSecrets } from "../../../../../domain/config/secrets.ts";
import { readOverrides } from "../../../../../domain/config/store.ts";
import { acceptedOverride, configWriterOf, writeConfigOverride } from "../../../../../domain/config/write.ts";
import { tenancyOf, type RequestAuth } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";

/** Server keys may manage the branch level only (what a deploy pushes); the rest is for admins. */
function checkAccess(auth: RequestAuth, level: ConfigLevel): void {
  if (auth.type === "server" && level !== "branch") throw new StatusError(403, "Server access can only manage branch config overrides.");
}

export default [
  defineRoute(configEndpoints.getConfigOverride, async ({ auth, params, services }) => {
    checkAccess(auth, params.level);
    const stored = await readOverrides(services.db, tenancyOf(auth));
    return { body: { config_string: JSON.stringify(maskOverrideSecrets(services.config.serverSecret, stored[params.level])) } };
  }),
  defineRoute(configEndpoints.replaceConfigOverride, async ({ auth, body, params, services }) => {
    checkAccess(auth, params.level);
    const override = acceptedOverride(params.level, body.config_string);
    if (params.level === "branch" && !body.source) throw new StatusError(400, "source is required for branch level config");
    // Written key by key over nothing, so a key given twice (dotted and nested) ends as a PATCH would leave it.
    const next = applyConfigOverride({}, override);
    const source = params.level === "branch" ? body.source : undefined;
    await writeConfigOverride(configWriterOf(services), tenancyOf(auth), params.level, () => next, source);
    return { body: SUCCESS };
  }),
  defineRoute(configEndpoints.updateConfigOverride, async ({ auth, body, params, services }) => {
    checkAccess(auth, params.level);
    const patch = acceptedOverride(params.level, body.config_override_string);
    await writeConfigOverride(configWriterOf(services), tenancyOf(auth), params.level, (stored) => applyConfigOverride(stored, patch));
    return { body: SUCCESS };
  }),
];
