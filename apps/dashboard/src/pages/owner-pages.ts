/** The signed-in pages outside any project (one file and one entry each, like pages/project-pages.ts). */
import type { ComponentType } from "react";

export interface OwnerPage {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const ownerPages: OwnerPage[] = [
  { path: "projects", load: () => import("./projects/projects-page.tsx") },
  { path: "new-project", load: () => import("./first-run/first-run-page.tsx") },
];
