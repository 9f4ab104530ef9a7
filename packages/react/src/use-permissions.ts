/**
 * A user's permissions, and an admin's permission definitions, as React
 * state through the SDK's cache: shared with `user.listPermissions()` and
 * `user.hasPermission()`, read again after grants, revocations and changes
 * to definitions made through the SDK. Each suspends on its first read.
 */
import type {
  AdminPermissionDefinition,
  PermissionListOptions,
  ProjectPermission,
  StackAdminApp,
  TeamPermission,
  TeamRef,
  UserWithTeams,
} from "@latchkey/js";
import { useStackApp } from "./provider.tsx";
import { useCacheEntry } from "./use-cache-entry.ts";

/** The permissions held in a team, or (without a team) in the project; `recursive` (default true) includes contained ones. */
export function usePermissions(user: UserWithTeams, team: TeamRef, options?: PermissionListOptions): TeamPermission[];
export function usePermissions(user: UserWithTeams, options?: PermissionListOptions): ProjectPermission[];
export function usePermissions(
  user: UserWithTeams,
  scope?: TeamRef | PermissionListOptions,
  options?: PermissionListOptions,
): TeamPermission[] {
  const team = isTeam(scope) ? scope : null;
  return useCacheEntry(user._permissionsEntry(team, team ? options : (scope as PermissionListOptions | undefined)));
}

/** A permission held in a team (`(user, team, id)`) or in the project (`(user, id)`), directly or through another; else null. */
export function usePermission(user: UserWithTeams, team: TeamRef, permissionId: string): TeamPermission | null;
export function usePermission(user: UserWithTeams, permissionId: string): ProjectPermission | null;
export function usePermission(user: UserWithTeams, scope: TeamRef | string, permissionId?: string): TeamPermission | null {
  const team = typeof scope === "string" ? null : scope;
  const id = typeof scope === "string" ? scope : permissionId;
  return useCacheEntry(user._permissionsEntry(team, { recursive: true })).find((permission) => permission.id === id) ?? null;
}

/** The project's team permission definitions, system permissions included (an admin app in <StackProvider>). */
export function useTeamPermissionDefinitions(): AdminPermissionDefinition[] {
  return useCacheEntry(adminApp(useStackApp<StackAdminApp>(), "useTeamPermissionDefinitions")._teamPermissionDefinitionsEntry());
}

/** The project's project permission definitions (an admin app in <StackProvider>). */
export function useProjectPermissionDefinitions(): AdminPermissionDefinition[] {
  return useCacheEntry(adminApp(useStackApp<StackAdminApp>(), "useProjectPermissionDefinitions")._projectPermissionDefinitionsEntry());
}

function isTeam(scope: TeamRef | PermissionListOptions | undefined): scope is TeamRef {
  return typeof scope === "object" && typeof (scope as TeamRef).id === "string";
}

function adminApp(app: StackAdminApp, hook: string): StackAdminApp {
  if (typeof (app as Partial<StackAdminApp>)._teamPermissionDefinitionsEntry !== "function") {
    throw new Error(`${hook}() needs an admin app in <StackProvider>.`);
  }
  return app;
}
