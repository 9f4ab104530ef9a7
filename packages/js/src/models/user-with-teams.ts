/**
 * The team and permission methods every user object has (the signed-in user
 * and, on a server, any user): a user's teams, their profile in a team, and
 * the permissions they hold. Each method hands over to models/user-teams.ts.
 */
import type { CacheEntry } from "../cache/entry.ts";
import type { ProjectPermission, TeamPermission } from "./permission.ts";
import type { ServerTeamCreateOptions, Team } from "./team.ts";
import type { EditableTeamMemberProfile, UserTeamInvitation } from "./team-member.ts";
import type { PermissionListOptions, TeamRef, UserTeams } from "./user-teams.ts";
import { UserFields } from "./user-fields.ts";

export abstract class UserWithTeams extends UserFields {
  /** This user's side of the app's team reads and writes. */
  protected abstract get teams(): UserTeams;

  /** A new team with this user as its creator. */
  createTeam(options: Omit<ServerTeamCreateOptions, "creatorUserId">): Promise<Team> {
    return this.teams.createTeam(options);
  }

  /** The teams this user is a member of. */
  listTeams(): Promise<Team[]> {
    return this.teams.listTeams();
  }

  /** The cache entry behind `listTeams`, for hooks (`useTeams` of @latchkey/react). */
  _teamsEntry(): CacheEntry<Team[]> {
    return this.teams.teamsEntry();
  }

  /** One of this user's teams, or null when they are not a member. */
  getTeam(teamId: string): Promise<Team | null> {
    return this.teams.getTeam(teamId);
  }

  leaveTeam(team: TeamRef): Promise<void> {
    return this.teams.leaveTeam(team);
  }

  /** This user's name and image in a team, editable. */
  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile> {
    return this.teams.getTeamProfile(team);
  }

  /** The cache entry behind `getTeamProfile`, for hooks (`useTeamProfile`). */
  _teamProfileEntry(team: TeamRef): CacheEntry<EditableTeamMemberProfile> {
    return this.teams.teamProfileEntry(team);
  }

  /** Whether this user holds a permission in a team, or (given only its id) in the project; directly or contained in another. */
  hasPermission(team: TeamRef, permissionId: string): Promise<boolean>;
  hasPermission(permissionId: string): Promise<boolean>;
  hasPermission(scope: TeamRef | string, permissionId?: string): Promise<boolean> {
    return this.teams.hasPermission(scope, permissionId);
  }

  getPermission(team: TeamRef, permissionId: string): Promise<TeamPermission | null>;
  getPermission(permissionId: string): Promise<ProjectPermission | null>;
  getPermission(scope: TeamRef | string, permissionId?: string): Promise<TeamPermission | null> {
    return this.teams.getPermission(scope, permissionId);
  }

  /** The permissions held in a team, or in the project; `recursive` (default true) includes the contained ones. */
  listPermissions(team: TeamRef, options?: PermissionListOptions): Promise<TeamPermission[]>;
  listPermissions(options?: PermissionListOptions): Promise<ProjectPermission[]>;
  listPermissions(scope?: TeamRef | PermissionListOptions, options?: PermissionListOptions): Promise<TeamPermission[]> {
    return this.teams.listPermissions(scope, options);
  }

  /** The cache entry behind `listPermissions` of the same arguments, for hooks (`usePermissions`, `usePermission`). */
  _permissionsEntry(team: TeamRef | null, options?: PermissionListOptions): CacheEntry<TeamPermission[]> {
    return team ? this.teams.permissionsEntry(team, options) : this.teams.permissionsEntry(options);
  }

  /** Pending invitations to this user's verified e-mail addresses. */
  listTeamInvitations(): Promise<UserTeamInvitation[]> {
    return this.teams.listTeamInvitations();
  }

  /** The cache entry behind `listTeamInvitations`, for hooks (`useUserTeamInvitations`). */
  _teamInvitationsEntry(): CacheEntry<UserTeamInvitation[]> {
    return this.teams.teamInvitationsEntry();
  }
}
