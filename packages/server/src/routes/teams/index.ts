import { KnownErrors, listOf, StatusError, teamsEndpoints } from "@latchkey/shared";
import { userTeamsCached } from "../../domain/teams/cached.ts";
import { createTeam, listProjectTeams } from "../../domain/teams/manage.ts";
import { clientTeamView, serverTeamView } from "../../domain/teams/views.ts";
import type { TeamRow } from "../../domain/teams/teams.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { hostImages } from "../../capabilities/images/domain/host.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";
import { listedUserId } from "../../http/listed-user.ts";
import { mapMaybe, run, settle, type Steps } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";

function view(auth: RequestAuth, team: TeamRow) {
  return auth.type === "client" ? clientTeamView(team) : serverTeamView(team);
}

/** Steps (lib/maybe-async.ts): a signed-in user whose teams are cached is answered without a wait. */
function* listTeams(services: Services, auth: RequestAuth, userIdOrMe: string | undefined): Steps<TeamRow[]> {
  const userId = yield* listedUserId(services, auth, userIdOrMe, "teams");
  const scope = tenancyOf(auth);
  if (userId === null) return yield* settle(listProjectTeams(services.db, scope));
  return yield* settle(userTeamsCached(services, scope, userId));
}

export default [
  defineRoute(teamsEndpoints.createTeam, async ({ auth, body, services }) => {
    let creatorId: string | null;
    if (auth.type === "client") {
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      if (!auth.project.config.client_team_creation_enabled) {
        throw new StatusError(
          403,
          "Client team creation is disabled for this project: enable client_team_creation_enabled, or create teams from a server.",
        );
      }
      creatorId = resolveUserId(auth, body.creator_user_id ?? "me");
    } else {
      creatorId = body.creator_user_id === undefined ? null : resolveUserId(auth, body.creator_user_id);
    }
    const { creator_user_id: _, ...written } = body;
    const fields = await hostImages(services, tenancyOf(auth), written, ["profile_image_url"]);
    const team = await createTeam(services.db, services.events, auth.project, auth.branchId, fields, creatorId);
    return { status: 201, body: view(auth, team) };
  }),
  defineRoute(teamsEndpoints.listTeams, ({ auth, query, services }) => {
    return mapMaybe(run(listTeams(services, auth, query.user_id)), (teams) => ({
      body: listOf(teams.map((team) => view(auth, team))),
    }));
  }),
];
