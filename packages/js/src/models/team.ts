import type { Json, ServerTeamJson, TeamJson } from "./json.ts";

export interface Team {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  readonly clientMetadata: Json;
  readonly clientReadOnlyMetadata: Json;
}

export interface ServerTeam extends Team {
  readonly createdAt: Date;
  readonly serverMetadata: Json;
}

export function teamFromJson(json: TeamJson): Team {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
  };
}

export function serverTeamFromJson(json: ServerTeamJson): ServerTeam {
  return {
    ...teamFromJson(json),
    createdAt: new Date(json.created_at_millis),
    serverMetadata: json.server_metadata,
  };
}
