import { listOf, permissionsEndpoints } from "@latchkey/shared";
import { createDefinition, listDefinitions } from "../../domain/permissions/definitions.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(permissionsEndpoints.listProjectPermissionDefinitions, async ({ auth, services }) => ({
    body: listOf(await listDefinitions(services, tenancyOf(auth), "project")),
  })),
  defineRoute(permissionsEndpoints.createProjectPermissionDefinition, async ({ auth, body, services }) => ({
    body: await createDefinition(services, tenancyOf(auth), "project", body),
  })),
];
