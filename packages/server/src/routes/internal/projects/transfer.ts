import { KnownErrors, SUCCESS, internalProjectsEndpoints } from "@latchkey/shared";
import { setProjectOwner } from "../../../domain/projects/manage.ts";
import { isTeamMember } from "../../../domain/teams/teams.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { requireInternalOwner } from "../../../http/internal-owner.ts";

/** Hands a project to another team; the caller must belong to both teams. */
export default [
  defineRoute(internalProjectsEndpoints.transferProject, async ({ auth, body, services }) => {
    const owner = requireInternalOwner(auth);
    const project = await services.projects.get(body.project_id);
    if (!project?.ownerTeamId || !(await isTeamMember(services.db, tenancyOf(auth), project.ownerTeamId, owner.id))) {
      throw new KnownErrors.ProjectNotFound(body.project_id);
    }
    if (!(await isTeamMember(services.db, tenancyOf(auth), body.new_team_id, owner.id))) {
      throw new KnownErrors.TeamMembershipNotFound(body.new_team_id, owner.id);
    }
    await setProjectOwner(services.db, services.events, project.id, body.new_team_id);
    return { body: SUCCESS };
  }),
];
