/**
 * One user's teams and permissions: the signed-in user (`me`, with their
 * session) or, on a server, any user by id. User objects hand their team
 * methods to this. Reads go through the app's cache; writes tell the app.
 */
import { snakeCaseKeys } from "@latchkey/shared/case";
import type { CacheEntry } from "../cache/entry.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ServerTeamJson, TeamJson } from "./json.ts";
import type { ProjectPermission, TeamPermission } from "./permission.ts";
import type { ServerTeamCreateOptions, Team } from "./team.ts";
import type { EditableTeamMemberProfile, UserTeamInvitation } from "./team-member.ts";

/** The app's cached team reads, as one user's methods use them (apps/teams.ts provides them). */
export interface TeamQueries {
  api: ApiClient;
  accessType: AccessType;
  /** A user's teams. */
  teams(session: Session | null, userIdOrMe: string): CacheEntry<Team[]>;
  teamProfile(session: Session | null, teamId: string, userIdOrMe: string): CacheEntry<EditableTeamMemberProfile>;
  teamPermissions(session: Session | null, userIdOrMe: string, teamId: string, recursive: boolean): CacheEntry<TeamPermission[]>;
  projectPermissions(session: Session | null, userIdOrMe: string, recursive: boolean): CacheEntry<ProjectPermission[]>;
  userInvitations(session: Session | null, userIdOrMe: string): CacheEntry<UserTeamInvitation[]>;
  /** The team object of a read or written team (a ServerTeam for server access). */
  team(json: TeamJson | ServerTeamJson, session: Session | null): Team;
  /** Teams or permissions changed: the cached reads are read again. */
  changed(): void;
}

/** What a user object needs from its app for teams: the cached reads, and one user's view of them. */
export interface AppTeamAccess extends TeamQueries {
  forUser(session: Session | null, userIdOrMe: string): UserTeams;
}

export interface PermissionListOptions {
  /** Also the permissions the granted ones contain, through any chain (default true). */
  recursive?: boolean;
}

/** A team, or anything naming one by id. */
export type TeamRef = Pick<Team, "id">;

function isTeamRef(value: unknown): value is TeamRef {
  return typeof value === "object" && value !== null && typeof (value as TeamRef).id === "string";
}

export class UserTeams {
  constructor(
    private readonly queries: TeamQueries,
    private readonly session: Session | null,
    /** `me` for the signed-in user, else the user's id. */
    private readonly userIdOrMe: string,
  ) {}

  /** A new team with this user as its creator (team-creator default permissions). */
  async createTeam(options: Omit<ServerTeamCreateOptions, "creatorUserId">): Promise<Team> {
    const json = await this.queries.api.call("POST /teams", {
      ...this.caller,
      body: { ...snakeCaseKeys(options), creator_user_id: this.userIdOrMe },
    });
    this.queries.changed();
    return this.queries.team(json, this.session);
  }

  listTeams(): Promise<Team[]> {
    return this.teamsEntry().get();
  }

  teamsEntry(): CacheEntry<Team[]> {
    return this.queries.teams(this.session, this.userIdOrMe);
  }

  /** One of this user's teams, or null when they are not a member. */
  async getTeam(teamId: string): Promise<Team | null> {
    return (await this.listTeams()).find((team) => team.id === teamId) ?? null;
  }

  /** Ends this user's membership (from a client: leaving is always allowed). */
  async leaveTeam(team: TeamRef): Promise<void> {
    await this.queries.api.call("DELETE /team-memberships/:team_id/:user_id", {
      ...this.caller,
      params: { team_id: team.id, user_id: this.userIdOrMe },
    });
    this.queries.changed();
  }

  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile> {
    return this.teamProfileEntry(team).get();
  }

  teamProfileEntry(team: TeamRef): CacheEntry<EditableTeamMemberProfile> {
    return this.queries.teamProfile(this.session, team.id, this.userIdOrMe);
  }

  /** The permissions this user holds in a team, or (without a team) in the project. */
  listPermissions(scope?: TeamRef | PermissionListOptions, options?: PermissionListOptions): Promise<TeamPermission[]> {
    return this.permissionsEntry(scope, options).get();
  }

  permissionsEntry(scope?: TeamRef | PermissionListOptions, options?: PermissionListOptions): CacheEntry<TeamPermission[]> {
    if (isTeamRef(scope)) return this.queries.teamPermissions(this.session, this.userIdOrMe, scope.id, options?.recursive ?? true);
    return this.queries.projectPermissions(this.session, this.userIdOrMe, scope?.recursive ?? true);
  }

  /** `(team, id)` for a team permission, `(id)` for a project permission; held directly or through one that contains it. */
  async getPermission(scope: TeamRef | string, permissionId?: string): Promise<TeamPermission | null> {
    const [team, id] = scopeAndId(scope, permissionId);
    const held = await (team ? this.listPermissions(team, { recursive: true }) : this.listPermissions({ recursive: true }));
    return held.find((permission) => permission.id === id) ?? null;
  }

  async hasPermission(scope: TeamRef | string, permissionId?: string): Promise<boolean> {
    return (await this.getPermission(scope, permissionId)) !== null;
  }

  /** Server access only. */
  async grantPermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    const [team, id] = scopeAndId(scope, permissionId);
    if (team) {
      await this.queries.api.call("POST /team-permissions/:team_id/:user_id/:permission_id", {
        ...this.caller,
        params: { team_id: team.id, user_id: this.userIdOrMe, permission_id: id },
        body: {},
      });
    } else {
      await this.queries.api.call("POST /project-permissions/:user_id/:permission_id", {
        ...this.caller,
        params: { user_id: this.userIdOrMe, permission_id: id },
        body: {},
      });
    }
    this.queries.changed();
  }

  /** Server access only; revokes a direct grant. */
  async revokePermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    const [team, id] = scopeAndId(scope, permissionId);
    if (team) {
      await this.queries.api.call("DELETE /team-permissions/:team_id/:user_id/:permission_id", {
        ...this.caller,
        params: { team_id: team.id, user_id: this.userIdOrMe, permission_id: id },
      });
    } else {
      await this.queries.api.call("DELETE /project-permissions/:user_id/:permission_id", {
        ...this.caller,
        params: { user_id: this.userIdOrMe, permission_id: id },
      });
    }
    this.queries.changed();
  }

  /** Pending invitations to this user's verified addresses. */
  listTeamInvitations(): Promise<UserTeamInvitation[]> {
    return this.teamInvitationsEntry().get();
  }

  teamInvitationsEntry(): CacheEntry<UserTeamInvitation[]> {
    return this.queries.userInvitations(this.session, this.userIdOrMe);
  }

  private get caller() {
    return { accessType: this.queries.accessType, session: this.session };
  }
}

/** `(team, id)` or `(id)`: the team (none for project scope) and the permission id. */
function scopeAndId(scope: TeamRef | string, permissionId: string | undefined): [TeamRef | null, string] {
  if (typeof scope === "string") return [null, scope];
  if (permissionId === undefined) throw new Error("Name the permission: (team, permissionId).");
  return [scope, permissionId];
}
