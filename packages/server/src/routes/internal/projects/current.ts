import { INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { deleteProject, updateProject } from "../../../domain/projects/manage.ts";
import { projectPatchSchema } from "../../../domain/projects/schemas.ts";
import { adminProjectView } from "../../../domain/projects/views.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";
import { withProductionModeCheck } from "../owner.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/internal/projects/current",
    summary: "The current project with its whole configuration",
    tags: ["Projects"],
    access: ["admin"],
    handler: ({ auth }) => ({ body: adminProjectView(auth.project) }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/internal/projects/current",
    summary: "Update the current project and its configuration",
    tags: ["Projects"],
    access: ["admin"],
    body: projectPatchSchema,
    handler: async ({ auth, body, services }) => {
      const updated = await withProductionModeCheck(() =>
        services.db.transaction(async (tx) => {
          const row = await updateProject(tx, auth.project.id, body);
          await services.projects.changed(tx, row.id);
          return row;
        }),
      );
      return { body: adminProjectView(updated) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/internal/projects/current",
    summary: "Delete the current project and everything in it",
    tags: ["Projects"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      if (auth.project.id === INTERNAL_PROJECT_ID) throw new StatusError(400, "The internal project cannot be deleted.");
      await deleteProject(services.db, auth.project.id);
      await services.projects.changed(services.db, auth.project.id);
      return { body: { success: true } };
    },
  }),
];
