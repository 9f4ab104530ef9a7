import { KnownErrors, PROJECT_TRANSFERRED, StatusError, internalProjectsEndpoints } from "@latchkey/shared";
import { setProjectOwner } from "../../../domain/projects/manage.ts";
import { isTeamMember } from "../../../domain/teams/teams.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { requireInternalOwner, requireOwnerTeamAdmin } from "../../../http/internal-owner.ts";

/**
 * Hands a project to another team. The caller must be an admin of the team
 * that owns it now, and a member (any role) of the team that receives it.
 */
export default [
  defineRoute(internalProjectsEndpoints.transferProject, async ({ auth, body, services }) => {
    const owner = requireInternalOwner(auth);
    const project = await services.projects.get(body.project_id);
    if (!project) throw new KnownErrors.ProjectNotFound(body.project_id);
    if (!project.ownerTeamId) throw new StatusError(400, "This project has no owner team, so it cannot be transferred.");
    await requireOwnerTeamAdmin(services, auth, owner, project.ownerTeamId);
    if (!(await isTeamMember(services.db, tenancyOf(auth), body.new_team_id, owner.id))) {
      throw new KnownErrors.TeamMembershipNotFound(body.new_team_id, owner.id);
    }
    await setProjectOwner(services.db, services.events, project.id, body.new_team_id);
    return { body: PROJECT_TRANSFERRED };
  }),
];
