import { permissionsEndpoints, SUCCESS } from "@latchkey/shared";
import { grantProjectPermission, revokeProjectPermission } from "../../../domain/permissions/grants.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(permissionsEndpoints.grantProjectPermission, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await grantProjectPermission(services, tenancyOf(auth), userId, params.permission_id);
    return { body: { id: params.permission_id, user_id: userId } };
  }),
  defineRoute(permissionsEndpoints.revokeProjectPermission, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await revokeProjectPermission(services, tenancyOf(auth), userId, params.permission_id);
    return { body: SUCCESS };
  }),
];
