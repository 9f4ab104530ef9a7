import { listOf, permissionsEndpoints } from "@latchkey/shared";
import { allProjectPermissions, userProjectPermissions } from "../../domain/permissions/listing.ts";
import { tenancyOf } from "../../http/auth.ts";
import { listedUserId } from "../../http/listed-user.ts";
import { defineRoute } from "../../http/route.ts";
import { run, settle } from "../../lib/maybe-async.ts";

export default [
  // A user's own listing is answered synchronously when the caches hold it (lib/maybe-async.ts).
  defineRoute(permissionsEndpoints.listProjectPermissions, ({ auth, query, services }) =>
    run(
      (function* () {
        const userId = yield* listedUserId(services, auth, query.user_id, "permissions");
        const filter = { permissionId: query.permission_id, recursive: query.recursive ?? false };
        const tenancy = tenancyOf(auth);
        const items =
          userId === null
            ? yield* settle(allProjectPermissions(services, tenancy, filter))
            : yield* userProjectPermissions(services, tenancy, userId, filter);
        return { body: listOf(items) };
      })(),
    ),
  ),
];
