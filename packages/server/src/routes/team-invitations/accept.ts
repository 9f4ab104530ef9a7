import { teamInvitationsEndpoints } from "@latchkey/shared";
import { acceptTeamInvitation, assertMayJoinByInvitation } from "../../domain/teams/invitations.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(teamInvitationsEndpoints.acceptTeamInvitation, async ({ auth, body, services }) => {
    const user = auth.user!;
    // Before the code is touched: a refused user leaves it usable.
    assertMayJoinByInvitation(user, auth.project);
    await acceptTeamInvitation(services, auth.project, auth.branchId, user, body.code);
    return { body: {} };
  }),
];
