import { KnownErrors, StatusError, listOf, teamInvitationsEndpoints } from "@latchkey/shared";
import { listTeamInvitations, listUserInvitations } from "../../domain/teams/invitations.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";

export default [
  defineRoute(teamInvitationsEndpoints.listTeamInvitations, async ({ auth, query, services }) => {
    if (query.team_id !== undefined && query.user_id !== undefined) throw new StatusError(400, "Cannot specify both team_id and user_id");
    // A client's team_id was checked by the pipeline (membership, $read_members and $invite_members).
    if (query.team_id !== undefined)
      return { body: listOf(await listTeamInvitations(services.db, tenancyOf(auth), query.team_id, services.clock.date())) };
    if (query.user_id === undefined) throw new StatusError(400, "Must specify either team_id or user_id");
    const userId = invitedUserId(auth, query.user_id);
    return { body: listOf(await listUserInvitations(services.db, tenancyOf(auth), userId, services.clock.date())) };
  }),
];

/** Unlike elsewhere (http/user-target.ts), a client naming another user here is answered as if it had no user: CANNOT_GET_OWN_USER_WITHOUT_USER, as clients of this endpoint expect. */
function invitedUserId(auth: RequestAuth, userIdOrMe: string): string {
  if (auth.type === "client" && userIdOrMe !== "me" && userIdOrMe !== auth.user?.id) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return resolveUserId(auth, userIdOrMe);
}
