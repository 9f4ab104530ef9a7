/**
 * Teams: the objects as a client and as a server sees them, and the /teams
 * endpoints. A client sees only the teams it belongs to, and changes or
 * deletes one only with the team permission the endpoint names; creating a
 * team from a client needs the project's client_team_creation_enabled.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { metadataSchema, profileImageUrlSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { jsonSchema, listJson, successJson } from "./json.ts";

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

/** A team's name: required, never empty. */
// An empty name is accepted, as clients of the reference API expect (a team may be named later).
export const teamDisplayNameSchema = z.string().max(256);

export const serverTeamPatchBody = z.strictObject({
  display_name: teamDisplayNameSchema.optional(),
  profile_image_url: profileImageUrlSchema.optional(),
  client_metadata: metadataSchema.optional(),
  client_read_only_metadata: metadataSchema.optional(),
  server_metadata: metadataSchema.optional(),
});
export type ServerTeamPatchBody = z.input<typeof serverTeamPatchBody>;
export type ServerTeamPatch = z.output<typeof serverTeamPatchBody>;

export const clientTeamPatchBody = serverTeamPatchBody.pick({ display_name: true, profile_image_url: true, client_metadata: true });
export type ClientTeamPatchBody = z.input<typeof clientTeamPatchBody>;

export const serverTeamCreateBody = serverTeamPatchBody.extend({
  display_name: teamDisplayNameSchema,
  /** The member who creates it: gets the team-creator default permissions (their selected team is left as it is; the SDK selects the new team). */
  creator_user_id: userIdOrMeSchema.optional(),
});
export type ServerTeamCreateBody = z.input<typeof serverTeamCreateBody>;
export type ServerTeamCreate = z.output<typeof serverTeamCreateBody>;

export const clientTeamCreateBody = serverTeamCreateBody.pick({
  display_name: true,
  profile_image_url: true,
  client_metadata: true,
  creator_user_id: true,
});
export type ClientTeamCreateBody = z.input<typeof clientTeamCreateBody>;

const ALL = ["client", "server", "admin"] as const;
const TAGS = ["Teams"];
const teamParams = z.strictObject({ team_id: uuidSchema });

export const teamsEndpoints = {
  createTeam: defineEndpoint({
    method: "POST",
    path: "/teams",
    summary: "Create a team (from a client: with the signed-in user as its creator)",
    tags: TAGS,
    access: ALL,
    body: serverTeamCreateBody,
    clientBody: clientTeamCreateBody,
    status: 201,
    response: serverTeamJson,
    clientResponse: clientTeamJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound],
  }),
  listTeams: defineEndpoint({
    method: "GET",
    path: "/teams",
    summary: "List teams: a user's (user_id; a client must name itself), or all of the project's",
    tags: TAGS,
    access: ALL,
    query: z.strictObject({ user_id: userIdOrMeSchema.optional() }),
    response: listJson(serverTeamJson),
    clientResponse: listJson(clientTeamJson),
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound],
  }),
  getTeam: defineEndpoint({
    method: "GET",
    path: "/teams/:team_id",
    summary: "Get a team (a client only one it belongs to)",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: [], teamIdIn: "params" },
    params: teamParams,
    response: serverTeamJson,
    clientResponse: clientTeamJson,
    errors: [KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound],
  }),
  updateTeam: defineEndpoint({
    method: "PATCH",
    path: "/teams/:team_id",
    summary: "Update a team",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: ["$update_team"], teamIdIn: "params" },
    params: teamParams,
    body: serverTeamPatchBody,
    clientBody: clientTeamPatchBody,
    response: serverTeamJson,
    clientResponse: clientTeamJson,
    errors: [KnownErrors.TeamNotFound],
  }),
  deleteTeam: defineEndpoint({
    method: "DELETE",
    path: "/teams/:team_id",
    summary: "Delete a team with its memberships, profiles, invitations and permissions",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: ["$delete_team"], teamIdIn: "params" },
    params: teamParams,
    response: successJson,
    errors: [KnownErrors.TeamNotFound],
  }),
};
