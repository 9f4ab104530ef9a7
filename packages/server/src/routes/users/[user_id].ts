import { KnownErrors, uuidSchema } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../db/schema/index.ts";
import { passwordHashFromBody } from "../../domain/users/password-fields.ts";
import { findUser } from "../../domain/users/record.ts";
import { serverUserPatch, toUserPatch } from "../../domain/users/schemas.ts";
import { updateUser } from "../../domain/users/update.ts";
import { serverUserView } from "../../domain/users/views.ts";
import type { RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import type { Services } from "../../services.ts";

const params = z.object({ user_id: uuidSchema });

async function targetUser(services: Services, auth: RequestAuth, userId: string) {
  const user = await findUser(services.db, auth.project.id, auth.branchId, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  return user;
}

export default [
  defineRoute({
    method: "GET",
    path: "/users/:user_id",
    summary: "Get a user",
    tags: ["Users"],
    access: ["server", "admin"],
    params,
    handler: async ({ auth, params, services }) => ({
      body: serverUserView(await targetUser(services, auth, params.user_id), auth.project.config),
    }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/users/:user_id",
    summary: "Update a user",
    tags: ["Users"],
    access: ["server", "admin"],
    params,
    body: serverUserPatch,
    handler: async ({ auth, params, body, services }) => {
      const user = await targetUser(services, auth, params.user_id);
      const passwordHash = await passwordHashFromBody(body);
      const patch = toUserPatch(body);
      if (passwordHash !== undefined) patch.passwordHash = passwordHash;
      const updated = await services.db.transaction((tx) => updateUser(tx, services.bus, auth.project, auth.branchId, user, patch));
      return { body: serverUserView(updated, auth.project.config) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/users/:user_id",
    summary: "Delete a user, with their sessions and contact channels",
    tags: ["Users"],
    access: ["server", "admin"],
    params,
    handler: async ({ auth, params, services }) => {
      const deleted = await services.db.transaction(async (tx) => {
        const rows = await tx
          .delete(users)
          .where(and(eq(users.projectId, auth.project.id), eq(users.branchId, auth.branchId), eq(users.id, params.user_id)))
          .returning({ id: users.id });
        if (rows.length > 0) await services.bus.publish(tx, { t: "user", id: params.user_id });
        return rows;
      });
      if (deleted.length === 0) throw new KnownErrors.UserNotFound();
      return { body: { success: true } };
    },
  }),
];
