/**
 * The signed-in user's teams, a team's members and invitations, and the
 * user's permissions in a team: read through the SDK's cache (shared with
 * `user.listTeams()`, `team.listUsers()`, …) and read again after the SDK
 * changes them.
 */
import type { CurrentUser, EditableTeamMemberProfile, Team, TeamInvitation, TeamUser } from "@latchkey/js";
import { useCacheEntry } from "./use-cache-entry.ts";

/** Suspends on the first read. */
export function useTeams(user: CurrentUser): Team[] {
  return useCacheEntry(user._teamsEntry());
}

/** Suspends on the first read; from a client, needs `$read_members` in the team. */
export function useTeamUsers(team: Team): TeamUser[] {
  return useCacheEntry(team._usersEntry());
}

/** Suspends on the first read; from a client, needs `$read_members` and `$invite_members` in the team. */
export function useTeamInvitations(team: Team): TeamInvitation[] {
  return useCacheEntry(team._invitationsEntry());
}

/** The user's own (editable) profile in `team`. Suspends on the first read. */
export function useTeamProfile(user: CurrentUser, team: Team): EditableTeamMemberProfile {
  return useCacheEntry(user._teamProfileEntry(team));
}

/** Whether the user holds `permissionId` in `team`, directly or through a permission containing it. Suspends on the first read. */
export function usePermission(user: CurrentUser, team: Team, permissionId: string): boolean {
  return usePermissionIds(user, team).has(permissionId);
}

/** Every permission the user holds in `team` (containment resolved). Suspends on the first read. */
export function usePermissionIds(user: CurrentUser, team: Team): ReadonlySet<string> {
  return new Set(useCacheEntry(user._permissionsEntry(team)).map((permission) => permission.id));
}
