import { configEndpoints } from "@latchkey/shared";
import { maskSecrets } from "../../../domain/config/secrets.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(configEndpoints.getConfig, ({ auth, services }) => ({
    body: { config_string: JSON.stringify(maskSecrets(services.config.serverSecret, auth.project.rendered)) },
  })),
];
