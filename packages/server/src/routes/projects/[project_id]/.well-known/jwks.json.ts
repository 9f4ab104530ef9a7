import { StatusError, metaEndpoints } from "@latchkey/shared";
import type { AudienceKind } from "../../../../domain/tokens/signing-keys.ts";
import { defineRoute } from "../../../../http/route.ts";

/**
 * Public keys for verifying this project's access tokens. Tokens of
 * restricted or anonymous users verify only with keys asked for explicitly.
 */
export default [
  defineRoute(metaEndpoints.jwks, async ({ params, query, services }) => {
    const project = await services.projects.get(params.project_id);
    if (!project) throw new StatusError(404, `Project ${JSON.stringify(params.project_id)} not found.`);
    const kinds: AudienceKind[] = ["regular"];
    if (query.include_restricted || query.include_anonymous) kinds.push("restricted");
    if (query.include_anonymous) kinds.push("anonymous");
    return {
      headers: { "cache-control": "public, max-age=3600" },
      body: { keys: kinds.flatMap((kind) => services.keys.publicJwks(kind)) },
    };
  }),
];
