import type { TeamRow } from "../users/record.ts";

export function clientTeamView(team: TeamRow) {
  return {
    client_metadata: team.clientMetadata ?? null,
    client_read_only_metadata: team.clientReadOnlyMetadata ?? null,
    display_name: team.displayName,
    id: team.id,
    profile_image_url: team.profileImageUrl,
  };
}

export function serverTeamView(team: TeamRow) {
  return {
    ...clientTeamView(team),
    created_at_millis: team.createdAt.getTime(),
    server_metadata: team.serverMetadata ?? null,
  };
}
