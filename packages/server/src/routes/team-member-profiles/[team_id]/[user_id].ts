import { KnownErrors, StatusError, teamMembersEndpoints } from "@latchkey/shared";
import { clientMemberProfileView, findNamedMember, serverMemberProfileView, updateMemberProfile } from "../../../domain/teams/profiles.ts";
import { tenancyOf, type RequestAuth } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { hostImages } from "../../../capabilities/images/domain/host.ts";
import { resolveUserId } from "../../../http/user-target.ts";

function namedUserId(auth: RequestAuth, userIdOrMe: string): string {
  return userIdOrMe === "me" ? resolveUserId(auth, "me") : userIdOrMe;
}

export default [
  // A client reading someone else's profile has been checked for `$read_members` (http/team-permission.ts).
  defineRoute(teamMembersEndpoints.getTeamMemberProfile, async ({ auth, params, services }) => {
    const userId = namedUserId(auth, params.user_id);
    const { user, member } = await findNamedMember(services.db, tenancyOf(auth), params.team_id, userId, auth.type !== "client");
    return { body: auth.type === "client" ? clientMemberProfileView(member) : serverMemberProfileView(member, user, auth.project.config) };
  }),
  defineRoute(teamMembersEndpoints.updateTeamMemberProfile, async ({ auth, params, body, services }) => {
    const userId = namedUserId(auth, params.user_id);
    if (auth.type === "client" && userId !== auth.user?.id) {
      throw new StatusError(403, "Client can only update its own team member profile");
    }
    const scope = tenancyOf(auth);
    const { user } = await findNamedMember(services.db, scope, params.team_id, userId, auth.type !== "client");
    const fields = await hostImages(services, scope, body, ["profile_image_url"]);
    const member = await updateMemberProfile(services.db, scope, params.team_id, userId, fields);
    if (!member) throw new KnownErrors.TeamMembershipNotFound(params.team_id, userId);
    return { body: auth.type === "client" ? clientMemberProfileView(member) : serverMemberProfileView(member, user, auth.project.config) };
  }),
];
