import { permissionsEndpoints, SUCCESS } from "@latchkey/shared";
import { deleteDefinition, getDefinition, updateDefinition } from "../../domain/permissions/definitions.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";

/**
 * A team definition answers WRONG_PERMISSION_SCOPE here. The system
 * permissions are team permissions that no project defines: in project scope
 * they are PERMISSION_NOT_FOUND (domain/permissions/definitions.ts).
 */
export default [
  defineRoute(permissionsEndpoints.getProjectPermissionDefinition, async ({ auth, params, services }) => ({
    body: await getDefinition(services, tenancyOf(auth), "project", params.permission_id),
  })),
  defineRoute(permissionsEndpoints.updateProjectPermissionDefinition, async ({ auth, params, body, services }) => ({
    body: await updateDefinition(services, tenancyOf(auth), "project", params.permission_id, body),
  })),
  defineRoute(permissionsEndpoints.deleteProjectPermissionDefinition, async ({ auth, params, services }) => {
    await deleteDefinition(services, tenancyOf(auth), "project", params.permission_id);
    return { body: SUCCESS };
  }),
];
