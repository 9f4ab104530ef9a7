import { teamApiKeysEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../http/route.ts";
import { changeKey, readKey } from "../../domain/manage.ts";

// A client's `$manage_api_keys` in the team is checked before these run (the endpoints' `teamPermission`).
export default [
  defineRoute(teamApiKeysEndpoints.getTeamApiKey, async ({ auth, params, query, services }) => ({
    body: await readKey<"team">(services, auth, params.api_key_id, { type: "team", teamId: query.team_id }),
  })),
  defineRoute(teamApiKeysEndpoints.updateTeamApiKey, async ({ auth, body, params, query, services }) => ({
    body: await changeKey<"team">(services, auth, params.api_key_id, { type: "team", teamId: query.team_id }, body),
  })),
];
