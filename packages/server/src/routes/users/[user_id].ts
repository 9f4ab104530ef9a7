import { KnownErrors, SUCCESS, usersEndpoints } from "@latchkey/shared";
import { deleteUser } from "../../domain/users/delete.ts";
import { findUser } from "../../domain/users/record.ts";
import { updateUserFromBody } from "../../domain/users/update.ts";
import { serverUserView } from "../../domain/users/views.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import type { Services } from "../../services.ts";

async function targetUser(services: Services, auth: RequestAuth, userId: string) {
  const user = await findUser(services.db, auth.project.id, auth.branchId, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  return user;
}

export default [
  defineRoute(usersEndpoints.getUser, async ({ auth, params, query, services }) => {
    const user = await targetUser(services, auth, params.user_id);
    // Anonymous users stay out of reads unless asked for, as in the list; a write by id still reaches them.
    if (user.isAnonymous && !query.include_anonymous) throw new KnownErrors.UserNotFound();
    return { body: serverUserView(user, auth.project.config) };
  }),
  defineRoute(usersEndpoints.updateUser, async ({ auth, params, body, services }) => {
    const user = await targetUser(services, auth, params.user_id);
    const updated = await updateUserFromBody(services, auth.project, auth.branchId, user, body);
    return { body: serverUserView(updated, auth.project.config) };
  }),
  defineRoute(usersEndpoints.deleteUser, async ({ auth, params, services }) => {
    if (!(await deleteUser(services.db, services.events, tenancyOf(auth), params.user_id))) throw new KnownErrors.UserNotFound();
    return { body: SUCCESS };
  }),
];
