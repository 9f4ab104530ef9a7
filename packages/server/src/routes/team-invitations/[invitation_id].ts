import { SUCCESS, teamInvitationsEndpoints } from "@latchkey/shared";
import { revokeTeamInvitation } from "../../domain/teams/invitations.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  // A client's $remove_members in query.team_id was checked by the pipeline.
  defineRoute(teamInvitationsEndpoints.revokeTeamInvitation, async ({ auth, params, query, services }) => {
    await revokeTeamInvitation(services.db, tenancyOf(auth), query.team_id, params.invitation_id);
    return { body: SUCCESS };
  }),
];
