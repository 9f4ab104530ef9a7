/**
 * The signed-in owner and the projects their teams own. Each owned project
 * carries its own admin app (the owner's session as admin token), which
 * pages under /projects/:projectId use through `useAdminApp`.
 */
import type { AdminOwnedProject, CurrentInternalUser, StackAdminApp } from "@latchkey/js";
import { createContext, useContext } from "react";
import { useParams } from "react-router";

export interface OwnedProjects {
  owner: CurrentInternalUser;
  projects: AdminOwnedProject[];
  /** Reads the list again (after a create, rename, transfer or delete) and returns it. */
  refresh: () => Promise<AdminOwnedProject[]>;
}

export const OwnedProjectsContext = createContext<OwnedProjects | null>(null);

export function useOwnedProjects(): OwnedProjects {
  const value = useContext(OwnedProjectsContext);
  if (!value) throw new Error("useOwnedProjects is used inside the signed-in area (OwnerArea).");
  return value;
}

/** The project of the current URL (/projects/:projectId/…); the project layout only renders its pages when it exists. */
export function useCurrentProject(): AdminOwnedProject {
  const { projectId } = useParams();
  const project = useOwnedProjects().projects.find((p) => p.id === projectId);
  if (!project) throw new Error(`No owned project ${projectId ?? "(none)"}: useCurrentProject is used under the project layout.`);
  return project;
}

/** The admin app of the current project: every read and change of its users, teams, settings and mail. */
export function useAdminApp(): StackAdminApp {
  return useCurrentProject().app;
}
