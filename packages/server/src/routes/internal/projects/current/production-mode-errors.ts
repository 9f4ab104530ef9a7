import { internalProjectsEndpoints } from "@latchkey/shared";
import { productionModeErrors } from "../../../../domain/projects/production-mode.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(internalProjectsEndpoints.getProductionModeErrors, ({ auth }) => ({
    body: { errors: productionModeErrors(auth.project.id, auth.project.config) },
  })),
];
