import { permissionsEndpoints, SUCCESS } from "@latchkey/shared";
import { grantTeamPermission, revokeTeamPermission } from "../../../../domain/permissions/grants.ts";
import { tenancyOf } from "../../../../http/auth.ts";
import { defineRoute } from "../../../../http/route.ts";
import { resolveUserId } from "../../../../http/user-target.ts";

export default [
  defineRoute(permissionsEndpoints.grantTeamPermission, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await grantTeamPermission(services, tenancyOf(auth), params.team_id, userId, params.permission_id);
    return { body: { id: params.permission_id, team_id: params.team_id, user_id: userId } };
  }),
  defineRoute(permissionsEndpoints.revokeTeamPermission, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await revokeTeamPermission(services, tenancyOf(auth), params.team_id, userId, params.permission_id);
    return { body: SUCCESS };
  }),
];
