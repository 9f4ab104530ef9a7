import { KnownErrors, internalProjectsEndpoints, listOf } from "@latchkey/shared";
import { createProject, listOwnedProjects } from "../../../domain/projects/manage.ts";
import { adminProjectView } from "../../../domain/projects/views.ts";
import { isTeamMember } from "../../../domain/teams/teams.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { requireInternalOwner, withProductionModeCheck } from "../../../http/internal-owner.ts";

export default [
  defineRoute(internalProjectsEndpoints.listOwnedProjects, async ({ auth, services }) => {
    const owner = requireInternalOwner(auth);
    const rows = await listOwnedProjects(services.db, services.config.serverSecret, owner.id);
    return { body: listOf(rows.map((row) => adminProjectView(row, services.config.serverSecret))) };
  }),
  defineRoute(internalProjectsEndpoints.createProject, async ({ auth, body, services }) => {
    const owner = requireInternalOwner(auth);
    if (!(await isTeamMember(services.db, tenancyOf(auth), body.owner_team_id, owner.id))) {
      throw new KnownErrors.TeamMembershipNotFound(body.owner_team_id, owner.id);
    }
    const project = await withProductionModeCheck(() => createProject(services.db, services.config.serverSecret, body));
    return { status: 201, body: adminProjectView(project, services.config.serverSecret) };
  }),
];
