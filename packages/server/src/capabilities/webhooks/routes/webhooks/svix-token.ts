import { webhooksEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { svixServerUrl, svixToken } from "../../domain/svix-token.ts";

export default [
  defineRoute(webhooksEndpoints.createSvixToken, ({ auth, services }) => ({
    status: 201,
    body: { token: svixToken(services, auth.project.id), url: svixServerUrl(services.config.apiUrl) },
  })),
];
