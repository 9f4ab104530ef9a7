import { KnownErrors, SUCCESS, teamsEndpoints } from "@latchkey/shared";
import { findTeamCached } from "../../domain/teams/cached.ts";
import { deleteTeam, updateTeam } from "../../domain/teams/manage.ts";
import { clientTeamView, serverTeamView } from "../../domain/teams/views.ts";
import type { TeamRow } from "../../domain/teams/teams.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { hostImages } from "../../capabilities/images/domain/host.ts";
import { mapMaybe } from "../../lib/maybe-async.ts";

function view(auth: RequestAuth, team: TeamRow) {
  return auth.type === "client" ? clientTeamView(team) : serverTeamView(team);
}

// A client's membership and permissions in the team are checked before these
// run (the endpoints' `teamPermission`: http/team-permission.ts).
export default [
  defineRoute(teamsEndpoints.getTeam, ({ auth, params, services }) =>
    mapMaybe(findTeamCached(services, tenancyOf(auth), params.team_id), (team) => {
      if (!team) throw new KnownErrors.TeamNotFound(params.team_id);
      return { body: view(auth, team) };
    }),
  ),
  defineRoute(teamsEndpoints.updateTeam, async ({ auth, params, body, services }) => {
    const fields = await hostImages(services, tenancyOf(auth), body, ["profile_image_url"]);
    return { body: view(auth, await updateTeam(services.db, services.events, tenancyOf(auth), params.team_id, fields)) };
  }),
  defineRoute(teamsEndpoints.deleteTeam, async ({ auth, params, services }) => {
    await deleteTeam(services.db, services.events, tenancyOf(auth), params.team_id);
    return { body: SUCCESS };
  }),
];
