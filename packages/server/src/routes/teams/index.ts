import { KnownErrors, listOf, StatusError, teamsEndpoints } from "@latchkey/shared";
import { userTeamsCached } from "../../domain/teams/cached.ts";
import { createTeam, listProjectTeams } from "../../domain/teams/manage.ts";
import { clientTeamView, serverTeamView } from "../../domain/teams/views.ts";
import { findUserCached } from "../../domain/users/cached.ts";
import type { TeamRow } from "../../domain/users/record.ts";
import { tenancyOf, type RequestAuth } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";
import { mapMaybe, run, settle, type Steps } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";

function view(auth: RequestAuth, team: TeamRow) {
  return auth.type === "client" ? clientTeamView(team) : serverTeamView(team);
}

/** Whose teams to list: a client only its own (`me` or its id), a server anyone's or (null) all of them. */
function listedUserId(auth: RequestAuth, userIdOrMe: string | undefined): string | null {
  if (auth.type === "client") {
    if (userIdOrMe === "me") return resolveUserId(auth, "me");
    if (userIdOrMe === undefined || userIdOrMe !== auth.user?.id) {
      throw new StatusError(403, "Client can only list teams for its own user: use user_id=me");
    }
    return userIdOrMe;
  }
  return userIdOrMe === undefined ? null : resolveUserId(auth, userIdOrMe);
}

/** Steps (lib/maybe-async.ts): a signed-in user whose teams are cached is answered without a wait. */
function* listTeams(services: Services, auth: RequestAuth, userIdOrMe: string | undefined): Steps<TeamRow[]> {
  const userId = listedUserId(auth, userIdOrMe);
  const scope = tenancyOf(auth);
  if (userId === null) return yield* settle(listProjectTeams(services.db, scope));
  if (userId !== auth.user?.id && !(yield* settle(findUserCached(services, scope.projectId, scope.branchId, userId)))) {
    throw new KnownErrors.UserNotFound();
  }
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
    const { creator_user_id: _, ...fields } = body;
    const team = await createTeam(services.db, services.bus, auth.project, auth.branchId, fields, creatorId);
    return { status: 201, body: view(auth, team) };
  }),
  defineRoute(teamsEndpoints.listTeams, ({ auth, query, services }) => {
    return mapMaybe(run(listTeams(services, auth, query.user_id)), (teams) => ({
      body: listOf(teams.map((team) => view(auth, team))),
    }));
  }),
];
