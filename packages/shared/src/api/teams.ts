/** Team objects, as a client and as a server sees them. */
import { z } from "zod";
import { jsonSchema } from "./json.ts";

export const clientTeamJson = z.strictObject({
  client_metadata: jsonSchema,
  client_read_only_metadata: jsonSchema,
  display_name: z.string(),
  id: z.string(),
  profile_image_url: z.string().nullable(),
});
export type ClientTeamJson = z.infer<typeof clientTeamJson>;

export const serverTeamJson = clientTeamJson.extend({
  created_at_millis: z.number(),
  server_metadata: jsonSchema,
});
export type ServerTeamJson = z.infer<typeof serverTeamJson>;
