import { pageOf, usersEndpoints } from "@latchkey/shared";
import { listUsers } from "../../domain/users/list.ts";
import { createUserFromBody } from "../../domain/users/create.ts";
import { serverUserView } from "../../domain/users/views.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(usersEndpoints.listUsers, async ({ auth, query, services }) => {
    const page = await listUsers(services.db, auth.project.id, auth.branchId, {
      cursor: query.cursor ?? null,
      limit: query.limit ?? null,
      desc: query.desc ?? false,
      orderBy: query.order_by ?? "signed_up_at",
      onlyAnonymous: query.only_anonymous ?? false,
      search: query.query ?? null,
      includeAnonymous: query.include_anonymous ?? false,
      teamId: query.team_id ?? null,
    });
    return {
      body: pageOf(
        page.items.map((u) => serverUserView(u, auth.project.config)),
        page.nextCursor,
      ),
    };
  }),
  defineRoute(usersEndpoints.createUser, async ({ auth, body, services }) => {
    const user = await createUserFromBody(services, auth.project, auth.branchId, body);
    return { status: 201, body: serverUserView(user, auth.project.config) };
  }),
];
