import { listOf, teamApiKeysEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { createKey, listKeys } from "../../domain/manage.ts";

// A client's `$manage_api_keys` in the team is checked before these run (the endpoints' `teamPermission`).
export default [
  defineRoute(teamApiKeysEndpoints.createTeamApiKey, async ({ auth, body, services }) => ({
    body: await createKey<"team">(
      services,
      auth,
      { type: "team", teamId: body.team_id },
      { description: body.description, expiresAtMillis: body.expires_at_millis, isPublic: body.is_public ?? false },
    ),
  })),
  defineRoute(teamApiKeysEndpoints.listTeamApiKeys, async ({ auth, query, services }) => ({
    body: listOf(await listKeys<"team">(services, auth, { type: "team", teamId: query.team_id })),
  })),
];
