import { KnownErrors, uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import { setProjectOwner } from "../../../domain/projects/manage.ts";
import { isTeamMember } from "../../../domain/teams/teams.ts";
import { defineRoute } from "../../../http/route.ts";
import { requireInternalOwner } from "../owner.ts";

/** Hands a project to another team; the caller must belong to both teams. */
export default [
  defineRoute({
    method: "POST",
    path: "/internal/projects/transfer",
    summary: "Transfer a project to another team of the owner",
    tags: ["Projects"],
    access: ["client"],
    body: z.object({ project_id: uuidSchema, new_team_id: uuidSchema }).strict(),
    handler: async ({ auth, body, services }) => {
      const owner = requireInternalOwner(auth);
      const project = await services.projects.get(body.project_id);
      if (!project?.ownerTeamId || !(await isTeamMember(services.db, auth.project.id, project.ownerTeamId, owner.id))) {
        throw new KnownErrors.ProjectNotFound(body.project_id);
      }
      if (!(await isTeamMember(services.db, auth.project.id, body.new_team_id, owner.id))) {
        throw new KnownErrors.TeamMembershipNotFound(body.new_team_id, owner.id);
      }
      await setProjectOwner(services.db, project.id, body.new_team_id);
      await services.projects.changed(services.db, project.id);
      return { body: { success: true } };
    },
  }),
];
