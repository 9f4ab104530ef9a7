import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { passwordHashFromBody } from "../../domain/users/password-fields.ts";
import { clientUserPatch, serverUserPatch, toUserPatch } from "../../domain/users/schemas.ts";
import { updateUser } from "../../domain/users/update.ts";
import { clientUserView, serverUserView, userViewJson } from "../../domain/users/views.ts";
import type { RequestAuth } from "../../http/auth.ts";
import { StatusError } from "../../http/errors.ts";
import { jsonTextResponse } from "../../http/response.ts";
import { defineRoute } from "../../http/route.ts";

function currentUser(auth: RequestAuth) {
  if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return auth.user;
}

function view(auth: RequestAuth, user: NonNullable<RequestAuth["user"]>) {
  return auth.type === "client" ? clientUserView(user, auth.project.config) : serverUserView(user, auth.project.config);
}

export default [
  defineRoute({
    method: "GET",
    path: "/users/me",
    summary: "The signed-in user",
    tags: ["Users"],
    access: ["client", "server", "admin"],
    handler: ({ auth }) =>
      jsonTextResponse(200, userViewJson(currentUser(auth), auth.project.config, auth.type === "client" ? "client" : "server")),
  }),
  defineRoute({
    method: "PATCH",
    path: "/users/me",
    summary: "Update the signed-in user",
    tags: ["Users"],
    access: ["client", "server", "admin"],
    body: serverUserPatch,
    clientBody: clientUserPatch,
    handler: async ({ auth, body, services }) => {
      const user = currentUser(auth);
      const passwordHash = await passwordHashFromBody(body);
      const patch = toUserPatch(body);
      if (passwordHash !== undefined) patch.passwordHash = passwordHash;
      const updated = await services.db.transaction((tx) => updateUser(tx, services.bus, auth.project, auth.branchId, user, patch));
      return { body: view(auth, updated) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/users/me",
    summary: "Delete the signed-in user",
    tags: ["Users"],
    access: ["client", "server", "admin"],
    handler: async ({ auth, services }) => {
      const user = currentUser(auth);
      if (auth.type === "client" && !auth.project.config.client_user_deletion_enabled) {
        throw new StatusError(400, "Client user deletion is not enabled for this project.");
      }
      await services.db.transaction(async (tx) => {
        await tx.delete(users).where(and(eq(users.projectId, auth.project.id), eq(users.id, user.id)));
        await services.bus.publish(tx, { t: "user", id: user.id });
      });
      return { body: { success: true } };
    },
  }),
];
