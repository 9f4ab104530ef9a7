import { DEFAULT_BRANCH_ID, KnownErrors, internalProjectsEndpoints, isDataUrl, listOf } from "@latchkey/shared";
import { createProject, listOwnedProjects, updateProject } from "../../../domain/projects/manage.ts";
import { LOGO_FIELDS } from "../../../domain/projects/logos.ts";
import { hostImages } from "../../../capabilities/images/domain/host.ts";
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
    // A logo sent as a data: URL is stored under the new project, so it is written once the project exists.
    const inline = LOGO_FIELDS.filter((key) => typeof body[key] === "string" && isDataUrl(body[key]));
    const first = { ...body, ...Object.fromEntries(inline.map((key) => [key, null])) };
    let project = await withProductionModeCheck(() => createProject(services.db, services.config.serverSecret, first));
    if (inline.length > 0) {
      const logos = await hostImages(services, { projectId: project.id, branchId: DEFAULT_BRANCH_ID }, body, inline);
      const set = Object.fromEntries(inline.map((key) => [key, logos[key]]));
      project = await updateProject(services.db, services.events, services.config.serverSecret, services.projects, project.id, set);
    }
    return { status: 201, body: adminProjectView(project, services.config.serverSecret) };
  }),
];
