import { clientProjectView } from "../../domain/projects/views.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/projects/current",
    summary: "The current project as clients see it",
    tags: ["Projects"],
    access: ["client", "server", "admin"],
    handler: ({ auth }) => ({ body: clientProjectView(auth.project) }),
  }),
];
