/** `ServerUser`'s teams and permissions (models/server-user.ts): the server's side of models/user-with-teams.ts. */
import { ServerUserProfile } from "./server-user-profile.ts";
import type { ServerTeam, ServerTeamCreateOptions } from "./team.ts";
import type { TeamRef, UserTeams } from "./user-teams.ts";

export abstract class ServerUserTeams extends ServerUserProfile {
  #teams: UserTeams | null = null;

  protected get teams(): UserTeams {
    return (this.#teams ??= this.context.teams.forUser(null, this.id));
  }

  /** A new team with this user as its creator, selected for them. */
  override async createTeam(options: Omit<ServerTeamCreateOptions, "creatorUserId">): Promise<ServerTeam> {
    const team = (await super.createTeam(options)) as ServerTeam;
    await this.update({ selectedTeamId: team.id });
    return team;
  }

  override listTeams(): Promise<ServerTeam[]> {
    return super.listTeams() as Promise<ServerTeam[]>;
  }

  override getTeam(teamId: string): Promise<ServerTeam | null> {
    return super.getTeam(teamId) as Promise<ServerTeam | null>;
  }

  setSelectedTeam(teamOrId: string | TeamRef | null): Promise<void> {
    return this.update({ selectedTeamId: typeof teamOrId === "object" && teamOrId !== null ? teamOrId.id : teamOrId });
  }

  /** Grants a team permission (the user must be a member), or with only an id a project permission. */
  grantPermission(team: TeamRef, permissionId: string): Promise<void>;
  grantPermission(permissionId: string): Promise<void>;
  grantPermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.grantPermission(scope, permissionId);
  }

  /** Revokes a permission granted directly (one held only through another stays). */
  revokePermission(team: TeamRef, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
  revokePermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.revokePermission(scope, permissionId);
  }
}
