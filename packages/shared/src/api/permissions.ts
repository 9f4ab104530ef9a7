/**
 * Permissions: the definitions a project declares (team- or project-scoped,
 * each able to contain others), the six system team permissions every project
 * has, and granting, revoking and listing them per user.
 *
 * A grant of a permission also grants every permission it contains, directly
 * or through a chain. Listing with `recursive=true` answers that whole set,
 * one item per permission id; without it (or `recursive=false`) only the
 * permissions granted directly. The SDK asks for `recursive=true` itself.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { booleanQuery, listJson, successJson } from "./json.ts";

/** The system team permissions, with what each allows a member to do (the descriptions clients of the reference API show). */
export const SYSTEM_TEAM_PERMISSIONS = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
} as const;
export type SystemTeamPermissionId = keyof typeof SYSTEM_TEAM_PERMISSIONS;

export function isSystemPermissionId(id: string): id is SystemTeamPermissionId {
  return Object.hasOwn(SYSTEM_TEAM_PERMISSIONS, id);
}

/** The team definitions a new project starts with (project definitions start empty). */
export const DEFAULT_TEAM_PERMISSION_DEFINITIONS = [
  {
    id: "team_admin",
    description: "Runs the team: everything the system team permissions allow.",
    contained_permission_ids: Object.keys(SYSTEM_TEAM_PERMISSIONS).sort() as SystemTeamPermissionId[],
  },
  {
    id: "team_member",
    description: "Takes part in the team: sees its members and invites others.",
    contained_permission_ids: ["$invite_members", "$read_members"] as SystemTeamPermissionId[],
  },
] as const;

export const CUSTOM_PERMISSION_ID_PATTERN = /^[a-z0-9_:]+$/;

/** Any permission id: a custom one, or a system one (`$…`). */
export const permissionIdSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((id) => /^\$?[a-z0-9_:]+$/.test(id), {
    message: 'may contain only lowercase letters, numbers, ":" and "_", with an optional "$" at the beginning',
  })
  .refine((id) => !id.startsWith("$") || isSystemPermissionId(id), { message: "Invalid system permission" });

/** The id of a permission a project defines itself: no `$`, which only system permissions carry. */
export const customPermissionIdSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((id) => !id.startsWith("$"), { message: 'may not start with "$": only system permissions do' })
  .refine((id) => id.startsWith("$") || CUSTOM_PERMISSION_ID_PATTERN.test(id), {
    message: 'may contain only lowercase letters, numbers, ":" and "_"',
  });

export const permissionDefinitionJson = z.strictObject({
  contained_permission_ids: z.array(z.string()),
  description: z.string().optional(),
  id: z.string(),
});
export type PermissionDefinitionJson = z.infer<typeof permissionDefinitionJson>;

export const permissionDefinitionCreateBody = z.strictObject({
  id: customPermissionIdSchema,
  description: z.string().max(1000).optional(),
  contained_permission_ids: z.array(permissionIdSchema).optional(),
});
export type PermissionDefinitionCreateBody = z.input<typeof permissionDefinitionCreateBody>;

export const permissionDefinitionPatchBody = permissionDefinitionCreateBody.partial();
export type PermissionDefinitionPatchBody = z.input<typeof permissionDefinitionPatchBody>;

export const teamPermissionJson = z.strictObject({ id: z.string(), team_id: z.string(), user_id: z.string() });
export type TeamPermissionJson = z.infer<typeof teamPermissionJson>;
export const projectPermissionJson = z.strictObject({ id: z.string(), user_id: z.string() });
export type ProjectPermissionJson = z.infer<typeof projectPermissionJson>;

const ALL = ["client", "server", "admin"] as const;
const SERVER = ["server", "admin"] as const;
const ADMIN = ["admin"] as const;
const TAGS = ["Permissions"];
const DEFINITION_TAGS = ["Permission definitions"];
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound] as const;

const teamPermissionListQuery = z.strictObject({
  team_id: uuidSchema.optional(),
  user_id: userIdOrMeSchema.optional(),
  permission_id: permissionIdSchema.optional(),
  recursive: booleanQuery.optional(),
});
const projectPermissionListQuery = teamPermissionListQuery.omit({ team_id: true });
const teamGrantParams = z.strictObject({ team_id: uuidSchema, user_id: userIdOrMeSchema, permission_id: permissionIdSchema });
const projectGrantParams = z.strictObject({ user_id: userIdOrMeSchema, permission_id: permissionIdSchema });
const definitionParams = z.strictObject({ permission_id: permissionIdSchema });
const DEFINITION_WRITE_ERRORS = [
  KnownErrors.PermissionIdAlreadyExists,
  KnownErrors.ContainedPermissionNotFound,
  KnownErrors.WrongPermissionScope,
] as const;

export const permissionsEndpoints = {
  listTeamPermissions: defineEndpoint({
    method: "GET",
    path: "/team-permissions",
    summary: "List team permissions of users (with those they contain when recursive=true)",
    tags: TAGS,
    access: ALL,
    query: teamPermissionListQuery,
    response: listJson(teamPermissionJson),
    errors: USER_ERRORS,
  }),
  grantTeamPermission: defineEndpoint({
    method: "POST",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    summary: "Grant a team permission to a member",
    tags: TAGS,
    access: SERVER,
    params: teamGrantParams,
    body: z.strictObject({}).optional(),
    status: 201,
    response: teamPermissionJson,
    errors: [...USER_ERRORS, KnownErrors.TeamMembershipNotFound, KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),
  revokeTeamPermission: defineEndpoint({
    method: "DELETE",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    summary: "Revoke a team permission from a member",
    tags: TAGS,
    access: SERVER,
    params: teamGrantParams,
    response: successJson,
    errors: [...USER_ERRORS, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionNotFound],
  }),
  listProjectPermissions: defineEndpoint({
    method: "GET",
    path: "/project-permissions",
    summary: "List project permissions of users (with those they contain when recursive=true)",
    tags: TAGS,
    access: ALL,
    query: projectPermissionListQuery,
    response: listJson(projectPermissionJson),
    errors: USER_ERRORS,
  }),
  grantProjectPermission: defineEndpoint({
    method: "POST",
    path: "/project-permissions/:user_id/:permission_id",
    summary: "Grant a project permission to a user",
    tags: TAGS,
    access: SERVER,
    params: projectGrantParams,
    body: z.strictObject({}).optional(),
    status: 201,
    response: projectPermissionJson,
    errors: [...USER_ERRORS, KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),
  revokeProjectPermission: defineEndpoint({
    method: "DELETE",
    path: "/project-permissions/:user_id/:permission_id",
    summary: "Revoke a project permission from a user",
    tags: TAGS,
    access: SERVER,
    params: projectGrantParams,
    response: successJson,
    errors: [...USER_ERRORS, KnownErrors.PermissionNotFound],
  }),

  listTeamPermissionDefinitions: defineEndpoint({
    method: "GET",
    path: "/team-permission-definitions",
    summary: "List the project's team permission definitions, system permissions included",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    response: listJson(permissionDefinitionJson),
  }),
  createTeamPermissionDefinition: defineEndpoint({
    method: "POST",
    path: "/team-permission-definitions",
    summary: "Define a team permission",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    body: permissionDefinitionCreateBody,
    status: 201,
    response: permissionDefinitionJson,
    errors: DEFINITION_WRITE_ERRORS,
  }),
  getTeamPermissionDefinition: defineEndpoint({
    method: "GET",
    path: "/team-permission-definitions/:permission_id",
    summary: "Get a team permission definition",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    response: permissionDefinitionJson,
    errors: [KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),
  updateTeamPermissionDefinition: defineEndpoint({
    method: "PATCH",
    path: "/team-permission-definitions/:permission_id",
    summary: "Update a team permission definition (a new id is carried to its grants and to what contains it)",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    body: permissionDefinitionPatchBody,
    response: permissionDefinitionJson,
    errors: [KnownErrors.PermissionNotFound, ...DEFINITION_WRITE_ERRORS],
  }),
  deleteTeamPermissionDefinition: defineEndpoint({
    method: "DELETE",
    path: "/team-permission-definitions/:permission_id",
    summary: "Delete a team permission definition, its grants, and its place in other definitions and the default lists",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    response: successJson,
    errors: [KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),

  listProjectPermissionDefinitions: defineEndpoint({
    method: "GET",
    path: "/project-permission-definitions",
    summary: "List the project's project permission definitions",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    response: listJson(permissionDefinitionJson),
  }),
  createProjectPermissionDefinition: defineEndpoint({
    method: "POST",
    path: "/project-permission-definitions",
    summary: "Define a project permission",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    body: permissionDefinitionCreateBody,
    status: 201,
    response: permissionDefinitionJson,
    errors: DEFINITION_WRITE_ERRORS,
  }),
  getProjectPermissionDefinition: defineEndpoint({
    method: "GET",
    path: "/project-permission-definitions/:permission_id",
    summary: "Get a project permission definition",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    response: permissionDefinitionJson,
    errors: [KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),
  updateProjectPermissionDefinition: defineEndpoint({
    method: "PATCH",
    path: "/project-permission-definitions/:permission_id",
    summary: "Update a project permission definition (a new id is carried to its grants and to what contains it)",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    body: permissionDefinitionPatchBody,
    response: permissionDefinitionJson,
    errors: [KnownErrors.PermissionNotFound, ...DEFINITION_WRITE_ERRORS],
  }),
  deleteProjectPermissionDefinition: defineEndpoint({
    method: "DELETE",
    path: "/project-permission-definitions/:permission_id",
    summary: "Delete a project permission definition, its grants, and its place in other definitions and the default list",
    tags: DEFINITION_TAGS,
    access: ADMIN,
    params: definitionParams,
    response: successJson,
    errors: [KnownErrors.PermissionNotFound, KnownErrors.WrongPermissionScope],
  }),
};
