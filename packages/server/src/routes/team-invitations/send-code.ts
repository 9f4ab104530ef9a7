import { teamInvitationsEndpoints } from "@latchkey/shared";
import { assertTrustedUrl } from "../../domain/projects/trusted-urls.ts";
import { sendTeamInvitation } from "../../domain/teams/invitations.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(teamInvitationsEndpoints.sendTeamInvitation, async ({ auth, body, services, ip }) => {
    assertTrustedUrl(auth.project.config, body.callback_url);
    const id = await sendTeamInvitation(
      services,
      auth.project,
      auth.branchId,
      { teamId: body.team_id, email: body.email, callbackUrl: body.callback_url },
      ip,
    );
    return { body: { success: true as const, id } };
  }),
];
