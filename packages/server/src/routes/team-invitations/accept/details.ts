import { teamInvitationsEndpoints } from "@latchkey/shared";
import { assertMayJoinByInvitation, checkTeamInvitation } from "../../../domain/teams/invitations.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(teamInvitationsEndpoints.teamInvitationDetails, async ({ auth, body, services }) => {
    assertMayJoinByInvitation(auth.user!, auth.project);
    return { body: await checkTeamInvitation(services, tenancyOf(auth), body.code) };
  }),
];
