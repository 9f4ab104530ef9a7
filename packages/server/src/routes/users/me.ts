import { KnownErrors, StatusError, SUCCESS, usersEndpoints } from "@latchkey/shared";
import { deleteUser } from "../../domain/users/delete.ts";
import { updateUserFromBody } from "../../domain/users/update.ts";
import { clientUserView, serverUserView, userViewJson } from "../../domain/users/views.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";

function currentUser(auth: RequestAuth) {
  if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return auth.user;
}

export default [
  // The hot path: the view's JSON text is kept with the cached user (domain/users/views.ts).
  defineRoute(usersEndpoints.getCurrentUser, ({ auth }) => ({
    json: userViewJson(currentUser(auth), auth.project.config, auth.type === "client" ? "client" : "server"),
  })),
  defineRoute(usersEndpoints.updateCurrentUser, async ({ auth, body, services }) => {
    const user = currentUser(auth);
    const updated = await updateUserFromBody(services, auth.project, auth.branchId, user, body);
    return { body: auth.type === "client" ? clientUserView(updated, auth.project.config) : serverUserView(updated, auth.project.config) };
  }),
  defineRoute(usersEndpoints.deleteCurrentUser, async ({ auth, services }) => {
    const user = currentUser(auth);
    if (auth.type === "client" && !auth.project.config.client_user_deletion_enabled) {
      throw new StatusError(400, "Client user deletion is not enabled for this project.");
    }
    await deleteUser(services.db, services.events, tenancyOf(auth), user.id);
    return { body: SUCCESS };
  }),
];
