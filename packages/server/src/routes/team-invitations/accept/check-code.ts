import { teamInvitationsEndpoints } from "@latchkey/shared";
import { checkTeamInvitation } from "../../../domain/teams/invitations.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(teamInvitationsEndpoints.checkTeamInvitationCode, async ({ auth, body, services }) => {
    await checkTeamInvitation(services, tenancyOf(auth), body.code);
    return { body: { is_code_valid: true as const } };
  }),
];
