/** Team objects (WIRE §2.2). */
import type { Json } from "./json.ts";

export interface ClientTeamJson {
  client_metadata: Json;
  client_read_only_metadata: Json;
  display_name: string;
  id: string;
  profile_image_url: string | null;
}

export interface ServerTeamJson extends ClientTeamJson {
  created_at_millis: number;
  server_metadata: Json;
}
