/**
 * Team memberships and member profiles. A member's profile (name and image in
 * that team) starts from the user's own profile when they join, and is
 * edited independently afterwards. A server adds and removes members; a
 * client may leave a team, remove others with `$remove_members`, and read the
 * members' profiles with `$read_members`.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { displayNameSchema, profileImageUrlSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";
import { serverUserJson } from "./users.ts";

export const teamMembershipJson = z.strictObject({ team_id: z.string(), user_id: z.string() });
export type TeamMembershipJson = z.infer<typeof teamMembershipJson>;

export const clientTeamMemberProfileJson = z.strictObject({
  display_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  team_id: z.string(),
  user_id: z.string(),
});
export type ClientTeamMemberProfileJson = z.infer<typeof clientTeamMemberProfileJson>;

export const serverTeamMemberProfileJson = clientTeamMemberProfileJson.extend({ user: serverUserJson });
export type ServerTeamMemberProfileJson = z.infer<typeof serverTeamMemberProfileJson>;

export const teamMemberProfilePatchBody = z.strictObject({
  display_name: displayNameSchema.optional(),
  profile_image_url: profileImageUrlSchema.optional(),
});
export type TeamMemberProfilePatchBody = z.input<typeof teamMemberProfilePatchBody>;

const ALL = ["client", "server", "admin"] as const;
const SERVER = ["server", "admin"] as const;
const MEMBERSHIP_TAGS = ["Team memberships"];
const PROFILE_TAGS = ["Team member profiles"];
const memberParams = z.strictObject({ team_id: uuidSchema, user_id: userIdOrMeSchema });
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound] as const;

export const teamMembersEndpoints = {
  addTeamMember: defineEndpoint({
    method: "POST",
    path: "/team-memberships/:team_id/:user_id",
    summary: "Add a user to a team, with the team-member default permissions",
    tags: MEMBERSHIP_TAGS,
    access: SERVER,
    params: memberParams,
    body: z.strictObject({}).optional(),
    status: 201,
    response: teamMembershipJson,
    errors: [...USER_ERRORS, KnownErrors.TeamNotFound, KnownErrors.TeamMembershipAlreadyExists],
  }),
  removeTeamMember: defineEndpoint({
    method: "DELETE",
    path: "/team-memberships/:team_id/:user_id",
    summary: "Remove a member from a team (a client may always remove itself: leave)",
    tags: MEMBERSHIP_TAGS,
    access: ALL,
    teamPermission: { permissions: ["$remove_members"], teamIdIn: "params", exceptOwnUserIn: "params" },
    params: memberParams,
    response: successJson,
    errors: [...USER_ERRORS, KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound],
  }),
  listTeamMemberProfiles: defineEndpoint({
    method: "GET",
    path: "/team-member-profiles",
    summary: "List member profiles of a team, or a user's profiles in their teams",
    tags: PROFILE_TAGS,
    access: ALL,
    teamPermission: { permissions: ["$read_members"], teamIdIn: "query", exceptOwnUserIn: "query" },
    query: z.strictObject({ team_id: uuidSchema.optional(), user_id: userIdOrMeSchema.optional() }),
    response: listJson(serverTeamMemberProfileJson),
    clientResponse: listJson(clientTeamMemberProfileJson),
    errors: [...USER_ERRORS, KnownErrors.TeamNotFound],
  }),
  getTeamMemberProfile: defineEndpoint({
    method: "GET",
    path: "/team-member-profiles/:team_id/:user_id",
    summary: "Get a member's profile in a team",
    tags: PROFILE_TAGS,
    access: ALL,
    teamPermission: { permissions: ["$read_members"], teamIdIn: "params", exceptOwnUserIn: "params" },
    params: memberParams,
    response: serverTeamMemberProfileJson,
    clientResponse: clientTeamMemberProfileJson,
    errors: [...USER_ERRORS, KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound],
  }),
  updateTeamMemberProfile: defineEndpoint({
    method: "PATCH",
    path: "/team-member-profiles/:team_id/:user_id",
    summary: "Update a member's profile in a team (a client only its own)",
    tags: PROFILE_TAGS,
    access: ALL,
    teamPermission: { permissions: [], teamIdIn: "params" },
    params: memberParams,
    body: teamMemberProfilePatchBody,
    response: serverTeamMemberProfileJson,
    clientResponse: clientTeamMemberProfileJson,
    errors: [...USER_ERRORS, KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound],
  }),
};
