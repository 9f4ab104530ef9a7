import { teamInvitationsEndpoints } from "@latchkey/shared";
import { acceptTeamInvitationById, assertMayJoinByInvitation } from "../../../domain/teams/invitations.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveOwnUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(teamInvitationsEndpoints.acceptTeamInvitationById, async ({ auth, params, query, services }) => {
    const userId = resolveOwnUserId(auth, query.user_id);
    // A client joins only as a full user; a server may add whichever user it names (who still needs the verified address).
    if (auth.type === "client") assertMayJoinByInvitation(auth.user!, auth.project);
    await acceptTeamInvitationById(services, auth.project, auth.branchId, userId, params.invitation_id);
    return { body: {} };
  }),
];
