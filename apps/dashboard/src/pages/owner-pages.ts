/** The signed-in pages outside any project (one file and one entry each, like pages/project-pages.ts). */
import type { DashboardRouteRoot } from "@latchkey/shared";
import type { ComponentType } from "react";

export interface OwnerPage {
  /** A new top-level page is added to DASHBOARD_ROUTE_ROOTS too, or the server answers it 404. */
  path: DashboardRouteRoot;
  load: () => Promise<{ default: ComponentType }>;
}

export const ownerPages: OwnerPage[] = [
  { path: "projects", load: () => import("./projects/projects-page.tsx") },
  { path: "new-project", load: () => import("./first-run/first-run-page.tsx") },
];
