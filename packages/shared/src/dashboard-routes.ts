/**
 * The first path segment of every dashboard page (apps/dashboard/src/router.tsx builds its routes
 * under these, and its types hold it to them). The server answers a path outside the API with the
 * dashboard's page only under one of these (or at /); any other path is a 404, not a page that
 * says "not found" with a 200.
 */
export const DASHBOARD_ROUTE_ROOTS = ["handler", "projects", "new-project", "purchase"] as const;

export type DashboardRouteRoot = (typeof DASHBOARD_ROUTE_ROOTS)[number];
