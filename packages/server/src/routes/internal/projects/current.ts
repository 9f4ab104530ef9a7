import { INTERNAL_PROJECT_ID, StatusError, SUCCESS, internalProjectsEndpoints } from "@latchkey/shared";
import { deleteProject, updateProject } from "../../../domain/projects/manage.ts";
import { adminProjectView } from "../../../domain/projects/views.ts";
import { LOGO_FIELDS } from "../../../domain/projects/logos.ts";
import { hostImages } from "../../../capabilities/images/domain/host.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { withProductionModeCheck } from "../../../http/internal-owner.ts";

export default [
  defineRoute(internalProjectsEndpoints.getAdminProject, ({ auth, services }) => ({
    body: adminProjectView(auth.project, services.config.serverSecret),
  })),
  defineRoute(internalProjectsEndpoints.updateAdminProject, async ({ auth, body, services }) => {
    const fields = await hostImages(services, tenancyOf(auth), body, LOGO_FIELDS);
    const updated = await withProductionModeCheck(() =>
      updateProject(services.db, services.events, services.config.serverSecret, services.projects, auth.project.id, fields),
    );
    return { body: adminProjectView(updated, services.config.serverSecret) };
  }),
  defineRoute(internalProjectsEndpoints.deleteAdminProject, async ({ auth, services }) => {
    if (auth.project.id === INTERNAL_PROJECT_ID) throw new StatusError(400, "The internal project cannot be deleted.");
    await deleteProject(services.db, services.events, auth.project.id);
    return { body: SUCCESS };
  }),
];
