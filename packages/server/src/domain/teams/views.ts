import type { ClientTeamJson, Json, ServerTeamJson } from "@latchkey/shared";
import type { TeamRow } from "../../db/schema/index.ts";

export function clientTeamView(team: TeamRow): ClientTeamJson {
  return {
    client_metadata: (team.clientMetadata ?? null) as Json,
    client_read_only_metadata: (team.clientReadOnlyMetadata ?? null) as Json,
    display_name: team.displayName,
    id: team.id,
    profile_image_url: team.profileImageUrl,
  };
}

export function serverTeamView(team: TeamRow): ServerTeamJson {
  return {
    ...clientTeamView(team),
    created_at_millis: team.createdAt.getTime(),
    server_metadata: (team.serverMetadata ?? null) as Json,
  };
}
