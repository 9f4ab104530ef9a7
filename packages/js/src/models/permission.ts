/**
 * Permissions: what a user holds (in a team, or in the project) and, for
 * admins, the definitions a project declares. A permission object is its id;
 * a definition also says what it contains.
 */
import type { PermissionDefinitionCreateBody, PermissionDefinitionPatchBody } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { PermissionDefinitionJson } from "./json.ts";

export interface TeamPermission {
  readonly id: string;
}

export interface ProjectPermission {
  readonly id: string;
}

export type AdminTeamPermission = TeamPermission;
export type AdminProjectPermission = ProjectPermission;

export interface AdminPermissionDefinition {
  readonly id: string;
  readonly description?: string;
  /** The permissions a grant of this one also grants (directly; they may contain more). */
  readonly containedPermissionIds: string[];
}
export type AdminTeamPermissionDefinition = AdminPermissionDefinition;
export type AdminProjectPermissionDefinition = AdminPermissionDefinition;

export type PermissionDefinitionCreateOptions = CamelCaseKeys<PermissionDefinitionCreateBody>;
/** `id` renames the permission: its grants and the definitions containing it follow. */
export type PermissionDefinitionUpdateOptions = CamelCaseKeys<PermissionDefinitionPatchBody>;
export type AdminTeamPermissionDefinitionCreateOptions = PermissionDefinitionCreateOptions;
export type AdminTeamPermissionDefinitionUpdateOptions = PermissionDefinitionUpdateOptions;
export type AdminProjectPermissionDefinitionCreateOptions = PermissionDefinitionCreateOptions;
export type AdminProjectPermissionDefinitionUpdateOptions = PermissionDefinitionUpdateOptions;

export function permissionDefinitionFromJson(json: PermissionDefinitionJson): AdminPermissionDefinition {
  return {
    id: json.id,
    ...(json.description !== undefined ? { description: json.description } : {}),
    containedPermissionIds: json.contained_permission_ids,
  };
}

export function permissionDefinitionToJson(options: PermissionDefinitionUpdateOptions): PermissionDefinitionPatchBody {
  return snakeCaseKeys(options);
}
