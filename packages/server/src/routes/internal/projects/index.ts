import { KnownErrors } from "@latchkey/shared";
import { createProject, listOwnedProjects } from "../../../domain/projects/manage.ts";
import { projectCreateSchema } from "../../../domain/projects/schemas.ts";
import { adminProjectView } from "../../../domain/projects/views.ts";
import { isTeamMember } from "../../../domain/teams/teams.ts";
import { defineRoute } from "../../../http/route.ts";
import { requireInternalOwner, withProductionModeCheck } from "../owner.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/internal/projects",
    summary: "Projects owned by the signed-in owner's teams",
    tags: ["Projects"],
    access: ["client"],
    handler: async ({ auth, services }) => {
      const owner = requireInternalOwner(auth);
      const rows = await listOwnedProjects(services.db, owner.id);
      return { body: { items: rows.map(adminProjectView), is_paginated: false } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/internal/projects",
    summary: "Create a project owned by one of the signed-in owner's teams",
    tags: ["Projects"],
    access: ["client"],
    body: projectCreateSchema,
    status: 201,
    handler: async ({ auth, body, services }) => {
      const owner = requireInternalOwner(auth);
      if (!(await isTeamMember(services.db, auth.project.id, body.owner_team_id, owner.id))) {
        throw new KnownErrors.TeamMembershipNotFound(body.owner_team_id, owner.id);
      }
      const project = await withProductionModeCheck(() => createProject(services.db, body));
      return { status: 201, body: adminProjectView(project) };
    },
  }),
];
