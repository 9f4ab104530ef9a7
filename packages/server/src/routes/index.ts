import { metaEndpoints } from "@latchkey/shared";
import { textResponse } from "../http/response.ts";
import { defineRoute } from "../http/route.ts";

/** GET /api/v1: a welcome, and who the server thinks is calling. */
export default [
  defineRoute(metaEndpoints.root, ({ auth }) => {
    const lines = [
      "Welcome to the Latchkey API endpoint! Please refer to the documentation at /api/v1/openapi.json.",
      "",
      `Authentication: ${auth ? auth.type[0]!.toUpperCase() + auth.type.slice(1) : "None"}`,
    ];
    // Indented under "Authentication:" as the clients reading this text expect.
    if (auth) {
      lines.push(`  Project: ${auth.project.id}`);
      lines.push(`  User: ${auth.user ? (auth.user.primaryEmail ?? auth.user.id) : "None"}`);
    }
    return textResponse(200, lines.join("\n"));
  }),
];
