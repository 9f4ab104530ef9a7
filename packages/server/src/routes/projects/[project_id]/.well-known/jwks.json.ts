import { z } from "zod";
import type { AudienceKind } from "../../../../domain/tokens/signing-keys.ts";
import { StatusError } from "../../../../http/errors.ts";
import { defineRoute } from "../../../../http/route.ts";

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

/**
 * Public keys for verifying this project's access tokens. Tokens of
 * restricted or anonymous users verify only with keys asked for explicitly.
 */
export default [
  defineRoute({
    method: "GET",
    path: "/projects/:project_id/.well-known/jwks.json",
    summary: "JSON Web Key Set of the project's access tokens",
    tags: ["Tokens"],
    access: "public",
    params: z.object({ project_id: z.string() }),
    query: z.object({ include_restricted: flag.optional(), include_anonymous: flag.optional() }).strict(),
    handler: async ({ params, query, services }) => {
      const project = await services.projects.get(params.project_id);
      if (!project) throw new StatusError(404, `Project ${JSON.stringify(params.project_id)} not found.`);
      const kinds: AudienceKind[] = ["regular"];
      if (query.include_restricted || query.include_anonymous) kinds.push("restricted");
      if (query.include_anonymous) kinds.push("anonymous");
      return {
        headers: { "cache-control": "public, max-age=3600" },
        body: { keys: kinds.flatMap((kind) => services.keys.publicJwks(kind)) },
      };
    },
  }),
];
