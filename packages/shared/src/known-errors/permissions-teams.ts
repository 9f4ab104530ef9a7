import { defineKnownError } from "./base.ts";

export const PermissionNotFound = defineKnownError("PERMISSION_NOT_FOUND", 404, (permissionId: string) => ({
  message: `Permission ${JSON.stringify(permissionId)} not found. Make sure the permission is defined for this project.`,
  details: { permission_id: permissionId },
}));

export const WrongPermissionScope = defineKnownError(
  "WRONG_PERMISSION_SCOPE",
  404,
  (permissionId: string, expectedScope: string, actualScope: string) => ({
    message: `Permission ${JSON.stringify(permissionId)} is a ${actualScope} permission, but a ${expectedScope} permission was expected.`,
    details: { permission_id: permissionId, expected_scope: expectedScope, actual_scope: actualScope },
  }),
);

export const ContainedPermissionNotFound = defineKnownError("CONTAINED_PERMISSION_NOT_FOUND", 400, (permissionId: string) => ({
  message: `The contained permission ${JSON.stringify(permissionId)} does not exist. Define it first, or remove it from contained_permission_ids.`,
  details: { permission_id: permissionId },
}));

export const PermissionIdAlreadyExists = defineKnownError("PERMISSION_ID_ALREADY_EXISTS", 400, (permissionId: string) => ({
  message: `A permission with id ${JSON.stringify(permissionId)} already exists. Choose another id.`,
  details: { permission_id: permissionId },
}));

export const TeamNotFound = defineKnownError("TEAM_NOT_FOUND", 404, (teamId: string) => ({
  message: `Team ${JSON.stringify(teamId)} not found.`,
  details: { team_id: teamId },
}));

export const TeamAlreadyExists = defineKnownError("TEAM_ALREADY_EXISTS", 409, (teamId: string) => ({
  message: `Team ${JSON.stringify(teamId)} already exists.`,
  details: { team_id: teamId },
}));

export const TeamMembershipNotFound = defineKnownError("TEAM_MEMBERSHIP_NOT_FOUND", 404, (teamId: string, userId: string) => ({
  message: `User ${JSON.stringify(userId)} is not a member of team ${JSON.stringify(teamId)}.`,
  details: { team_id: teamId, user_id: userId },
}));

export const TeamMembershipAlreadyExists = defineKnownError("TEAM_MEMBERSHIP_ALREADY_EXISTS", 409, () => ({
  message: "The user is already a member of this team.",
}));

export const ProjectPermissionRequired = defineKnownError("PROJECT_PERMISSION_REQUIRED", 401, (userId: string, permissionId: string) => ({
  message: `User ${JSON.stringify(userId)} does not have the project permission ${JSON.stringify(permissionId)} needed for this action.`,
  details: { user_id: userId, permission_id: permissionId },
}));

export const TeamPermissionRequired = defineKnownError(
  "TEAM_PERMISSION_REQUIRED",
  401,
  (teamId: string, userId: string, permissionId: string) => ({
    message: `User ${JSON.stringify(userId)} does not have the permission ${JSON.stringify(permissionId)} in team ${JSON.stringify(teamId)}, which this action needs.`,
    details: { team_id: teamId, user_id: userId, permission_id: permissionId },
  }),
);

export const TeamPermissionNotFound = defineKnownError(
  "TEAM_PERMISSION_NOT_FOUND",
  401,
  (teamId: string, userId: string, permissionId: string) => ({
    message: `User ${JSON.stringify(userId)} has no permission ${JSON.stringify(permissionId)} in team ${JSON.stringify(teamId)}.`,
    details: { team_id: teamId, user_id: userId, permission_id: permissionId },
  }),
);

export const TeamInvitationRestrictedUserNotAllowed = defineKnownError(
  "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
  403,
  (restrictedReason: { type: string }) => ({
    message: `Restricted users (${restrictedReason.type}) cannot accept team invitations. Complete the account setup first (for example, verify the e-mail address).`,
    details: { restricted_reason: restrictedReason },
  }),
);
