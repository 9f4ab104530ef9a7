import { permissionsEndpoints, SUCCESS } from "@latchkey/shared";
import { deleteDefinition, getDefinition, updateDefinition } from "../../domain/permissions/definitions.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";

/**
 * A team definition of the project scope answers WRONG_PERMISSION_SCOPE. The
 * system permissions can be read but not changed or deleted: to a write they
 * are PERMISSION_NOT_FOUND, being no definition of this project
 * (domain/permissions/definitions.ts).
 */
export default [
  defineRoute(permissionsEndpoints.getTeamPermissionDefinition, async ({ auth, params, services }) => ({
    body: await getDefinition(services, tenancyOf(auth), "team", params.permission_id),
  })),
  defineRoute(permissionsEndpoints.updateTeamPermissionDefinition, async ({ auth, params, body, services }) => ({
    body: await updateDefinition(services, tenancyOf(auth), "team", params.permission_id, body),
  })),
  defineRoute(permissionsEndpoints.deleteTeamPermissionDefinition, async ({ auth, params, services }) => {
    await deleteDefinition(services, tenancyOf(auth), "team", params.permission_id);
    return { body: SUCCESS };
  }),
];
