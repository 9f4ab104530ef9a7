import { internalMetricsEndpoints } from "@latchkey/shared";
import { projectMetrics } from "../../domain/metrics/overview.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(internalMetricsEndpoints.getMetrics, async ({ auth, query, services }) => ({
    body: await projectMetrics(services.db, auth.project, auth.branchId, {
      includeAnonymous: query.include_anonymous ?? false,
      now: services.clock.date(),
    }),
  })),
];
