import { KnownErrors, listOf, StatusError, teamMembersEndpoints } from "@latchkey/shared";
import { findTeam } from "../../domain/teams/cached.ts";
import { clientMemberProfileView, listMemberProfiles, serverMemberProfileView, usersByIds } from "../../domain/teams/profiles.ts";
import { findUser } from "../../domain/users/record.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";

export default [
  defineRoute(teamMembersEndpoints.listTeamMemberProfiles, async ({ auth, query, services }) => {
    const scope = tenancyOf(auth);
    const userId = query.user_id === "me" ? resolveUserId(auth, "me") : query.user_id;
    // A client's membership (and `$read_members`, unless it names itself) is checked before this runs: http/team-permission.ts.
    if (auth.type === "client" && query.team_id === undefined) throw new StatusError(400, "team_id is required for access type client");
    if (userId !== undefined && userId !== auth.user?.id && !(await findUser(services.db, scope.projectId, scope.branchId, userId))) {
      throw new KnownErrors.UserNotFound();
    }
    if (auth.type !== "client" && query.team_id !== undefined && !(await findTeam(services.db, scope, query.team_id))) {
      throw new KnownErrors.TeamNotFound(query.team_id);
    }
    const members = await listMemberProfiles(services.db, scope, { teamId: query.team_id, userId });
    if (auth.type === "client") return { body: listOf(members.map(clientMemberProfileView)) };
    const users = await usersByIds(
      services.db,
      scope,
      members.map((member) => member.userId),
    );
    return { body: listOf(members.map((member) => serverMemberProfileView(member, users.get(member.userId)!, auth.project.config))) };
  }),
];
