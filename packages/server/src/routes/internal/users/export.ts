import { usersEndpoints } from "@latchkey/shared";
import { EXPORT_CONTENT_TYPES, exportUsers } from "../../../domain/users/export.ts";
import { responseHeaders } from "../../../http/response.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(usersEndpoints.exportUsers, ({ auth, query, services }) => {
    const stream = exportUsers(
      services.db,
      auth.project.id,
      auth.branchId,
      auth.project.config,
      {
        desc: query.desc ?? false,
        orderBy: query.order_by ?? "signed_up_at",
        search: query.query ?? null,
        includeAnonymous: query.include_anonymous ?? false,
        onlyAnonymous: query.only_anonymous ?? false,
        teamId: query.team_id ?? null,
      },
      query.format,
    );
    return new Response(stream, {
      status: 200,
      headers: responseHeaders(EXPORT_CONTENT_TYPES[query.format], {
        "content-disposition": `attachment; filename="users.${query.format}"`,
      }),
    });
  }),
];
