import { KnownErrors, uuidSchema } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { projectApiKeys } from "../../../db/schema/index.ts";
import { projectKeysChanged } from "../../../domain/api-keys/key-check.ts";
import { keySetView, listKeySets, revokeKeySet } from "../../../domain/api-keys/project-keys.ts";
import type { RequestAuth } from "../../../http/auth.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";
import type { Services } from "../../../services.ts";

const params = z.object({ api_key_id: uuidSchema });

async function findKeySet(services: Services, auth: RequestAuth, id: string) {
  const [row] = await listKeySets(services.db, auth.project.id, eq(projectApiKeys.id, id));
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  return row;
}

export default [
  defineRoute({
    method: "GET",
    path: "/internal/api-keys/:api_key_id",
    summary: "Get one set of project keys",
    tags: ["API keys"],
    access: ["admin"],
    params,
    handler: async ({ auth, params, services }) => ({
      body: keySetView(await findKeySet(services, auth, params.api_key_id)),
    }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/internal/api-keys/:api_key_id",
    summary: "Change the description, or revoke (one way: revoked keys stay revoked)",
    tags: ["API keys"],
    access: ["admin"],
    params,
    body: z.object({ description: z.string().max(1000).optional(), revoked: z.boolean().optional() }).strict(),
    handler: async ({ auth, params, body, services }) => {
      const row = await findKeySet(services, auth, params.api_key_id);
      if (body.revoked === false && row.manuallyRevokedAt) {
        throw new StatusError(400, "A revoked key cannot be restored. Create a new key instead.");
      }
      if (body.description !== undefined) {
        await services.db.update(projectApiKeys).set({ description: body.description }).where(eq(projectApiKeys.id, row.id));
      }
      if (body.revoked) {
        await revokeKeySet(services.db, auth.project.id, row.id);
        await projectKeysChanged(services, auth.project.id);
      }
      return { body: keySetView(await findKeySet(services, auth, row.id)) };
    },
  }),
];
