import { StatusError, listOf, teamInvitationsEndpoints } from "@latchkey/shared";
import { listTeamInvitations, listUserInvitations } from "../../domain/teams/invitations.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveOwnUserId } from "../../http/user-target.ts";

export default [
  defineRoute(teamInvitationsEndpoints.listTeamInvitations, async ({ auth, query, services }) => {
    if (query.team_id !== undefined && query.user_id !== undefined) throw new StatusError(400, "Cannot specify both team_id and user_id");
    // A client's team_id was checked by the pipeline (membership, $read_members and $invite_members).
    if (query.team_id !== undefined)
      return { body: listOf(await listTeamInvitations(services.db, tenancyOf(auth), query.team_id, services.clock.date())) };
    if (query.user_id === undefined) throw new StatusError(400, "Must specify either team_id or user_id");
    const userId = resolveOwnUserId(auth, query.user_id);
    return { body: listOf(await listUserInvitations(services.db, tenancyOf(auth), userId, services.clock.date())) };
  }),
];
