import { SUCCESS, teamMembersEndpoints } from "@latchkey/shared";
import { addMember, removeMember } from "../../../domain/teams/memberships.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(teamMembersEndpoints.addTeamMember, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await addMember(services.db, services.events, auth.project, auth.branchId, params.team_id, userId);
    return { status: 201, body: { team_id: params.team_id, user_id: userId } };
  }),
  // A client removing someone else has been checked for `$remove_members`
  // (http/team-permission.ts); leaving (its own user) needs nothing.
  defineRoute(teamMembersEndpoints.removeTeamMember, async ({ auth, params, services }) => {
    const userId = params.user_id === "me" ? resolveUserId(auth, "me") : params.user_id;
    // A client is told only whether the membership exists: a team it is not in looks like one that does not exist.
    await removeMember(services.db, services.events, tenancyOf(auth), params.team_id, userId, auth.type !== "client");
    return { body: SUCCESS };
  }),
];
