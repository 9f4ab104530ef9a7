import { projectsEndpoints } from "@latchkey/shared";
import { clientProjectView } from "../../domain/projects/views.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(projectsEndpoints.getCurrentProject, ({ auth, services }) => ({
    body: clientProjectView(auth.project, services.config.sharedOAuthCredentials),
  })),
];
