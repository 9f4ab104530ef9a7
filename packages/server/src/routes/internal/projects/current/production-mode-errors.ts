import { internalProjectsEndpoints } from "@latchkey/shared";
import { productionModeProblems } from "../../../../domain/projects/production-mode.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(internalProjectsEndpoints.getProductionModeErrors, ({ auth }) => ({
    body: productionModeProblems(auth.project.id, auth.project.config),
  })),
];
