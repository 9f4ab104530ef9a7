/**
 * Every page of a project, in the order of the sidebar. Adding a page is one
 * file (its component as the default export) and one entry here: the route,
 * the sidebar link and the code-split chunk all come from this list.
 */
import type { ComponentType } from "react";

export interface ProjectPage {
  /** Under /projects/:projectId/; "" is the project's first page. */
  path: string;
  /** The sidebar's group and label; pages without one (a user's detail) are reached by links. */
  nav?: { group: "Project" | "Users" | "Authentication" | "Emails" | "Settings"; label: string };
  load: () => Promise<{ default: ComponentType }>;
}

export const projectPages: ProjectPage[] = [
  { path: "keys", nav: { group: "Settings", label: "Project keys" }, load: () => import("./keys/keys-page.tsx") },
  { path: "users", nav: { group: "Users", label: "Users" }, load: () => import("./users/users-page.tsx") },
];

/** The first page a project opens on. */
export const projectHome = projectPages[0]!.path;
