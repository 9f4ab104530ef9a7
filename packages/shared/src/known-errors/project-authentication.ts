import type { AccessType } from "../constants.ts";
import { defineKnownError, defineKnownErrorFamily } from "./base.ts";

/** Every failure to establish which project and access level a request has. */
export const ProjectAuthenticationError = defineKnownErrorFamily("ProjectAuthenticationError");
/** Failures of the admin access token (a project owner's session). */
export const InvalidAdminAccessToken = defineKnownErrorFamily("InvalidAdminAccessToken");
/** Keys or tokens that are present but do not authenticate. */
export const InvalidProjectAuthentication = defineKnownErrorFamily("InvalidProjectAuthentication");

export const ProjectKeyWithoutAccessType = defineKnownError(
  "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
  400,
  () => ({
    message: "A project key or admin access token was given without the x-stack-access-type header. Set it to client, server or admin.",
  }),
  ProjectAuthenticationError,
);

export const InvalidAccessType = defineKnownError(
  "INVALID_ACCESS_TYPE",
  400,
  (accessType: string) => ({
    message: `The x-stack-access-type header must be client, server or admin, but was "${accessType}".`,
  }),
  ProjectAuthenticationError,
);

export const AccessTypeWithoutProjectId = defineKnownError(
  "ACCESS_TYPE_WITHOUT_PROJECT_ID",
  400,
  (accessType: AccessType) => ({
    message: `The x-stack-access-type header was "${accessType}", but the x-stack-project-id header is missing.`,
    details: { request_type: accessType },
  }),
  ProjectAuthenticationError,
);

export const AccessTypeRequired = defineKnownError(
  "ACCESS_TYPE_REQUIRED",
  400,
  () => ({
    message:
      "This endpoint needs authentication: set the x-stack-access-type header (client, server or admin) and the x-stack-project-id header.",
  }),
  ProjectAuthenticationError,
);

export const InsufficientAccessType = defineKnownError(
  "INSUFFICIENT_ACCESS_TYPE",
  401,
  (actual: AccessType, allowed: AccessType[]) => ({
    message: `The x-stack-access-type header must be ${allowed.map((t) => `"${t}"`).join(" or ")}, but was "${actual}".`,
    details: { actual_access_type: actual, allowed_access_types: allowed },
  }),
  ProjectAuthenticationError,
);

export const InvalidPublishableClientKey = defineKnownError(
  "INVALID_PUBLISHABLE_CLIENT_KEY",
  401,
  (projectId: string) => ({
    message: `The publishable client key is not valid for project ${JSON.stringify(projectId)}. Does the project exist, and is the key current?`,
    details: { project_id: projectId },
  }),
  InvalidProjectAuthentication,
);

export const InvalidSecretServerKey = defineKnownError(
  "INVALID_SECRET_SERVER_KEY",
  401,
  (projectId: string) => ({
    message: `The secret server key is not valid for project ${JSON.stringify(projectId)}. Does the project exist, and is the key current?`,
    details: { project_id: projectId },
  }),
  InvalidProjectAuthentication,
);

export const InvalidSuperSecretAdminKey = defineKnownError(
  "INVALID_SUPER_SECRET_ADMIN_KEY",
  401,
  (projectId: string) => ({
    message: `The super secret admin key is not valid for project ${JSON.stringify(projectId)}. Does the project exist, and is the key current?`,
    details: { project_id: projectId },
  }),
  InvalidProjectAuthentication,
);

export const PublishableClientKeyRequiredForProject = defineKnownError(
  "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
  401,
  (projectId: string) => ({
    message: `Project ${JSON.stringify(projectId)} requires a publishable client key: send it in the x-stack-publishable-client-key header.`,
    details: { project_id: projectId },
  }),
  ProjectAuthenticationError,
);

export const ClientAuthenticationRequired = defineKnownError(
  "CLIENT_AUTHENTICATION_REQUIRED",
  401,
  () => ({ message: "The publishable client key must be provided." }),
  ProjectAuthenticationError,
);

export const ServerAuthenticationRequired = defineKnownError(
  "SERVER_AUTHENTICATION_REQUIRED",
  401,
  () => ({ message: "The secret server key must be provided in the x-stack-secret-server-key header." }),
  ProjectAuthenticationError,
);

export const ClientOrServerAuthenticationRequired = defineKnownError(
  "CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED",
  401,
  () => ({ message: "Either the publishable client key or the secret server key must be provided." }),
  ProjectAuthenticationError,
);

export const ClientOrAdminAuthenticationRequired = defineKnownError(
  "CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED",
  401,
  () => ({ message: "Either the publishable client key or the super secret admin key must be provided." }),
  ProjectAuthenticationError,
);

export const ClientOrServerOrAdminAuthenticationRequired = defineKnownError(
  "CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED",
  401,
  () => ({ message: "A publishable client key, secret server key or super secret admin key must be provided." }),
  ProjectAuthenticationError,
);

export const AdminAuthenticationRequired = defineKnownError(
  "ADMIN_AUTHENTICATION_REQUIRED",
  401,
  () => ({
    message: "Admin access needs the x-stack-super-secret-admin-key header or a project owner's token in x-stack-admin-access-token.",
  }),
  ProjectAuthenticationError,
);

export const UnparsableAdminAccessToken = defineKnownError(
  "UNPARSABLE_ADMIN_ACCESS_TOKEN",
  401,
  () => ({ message: "The admin access token is not a valid token." }),
  InvalidAdminAccessToken,
);

export const AdminAccessTokenExpired = defineKnownError(
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  401,
  (expiredAt: Date | null) => ({
    message: `The admin access token has expired${expiredAt ? ` (at ${expiredAt.toISOString()})` : ""}. Refresh it and try again.`,
    details: { expired_at_millis: expiredAt?.getTime() ?? null },
  }),
  InvalidAdminAccessToken,
);

export const InvalidProjectForAdminAccessToken = defineKnownError(
  "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
  401,
  () => ({ message: "Admin access tokens must be issued by the internal project." }),
  InvalidAdminAccessToken,
);

export const AdminAccessTokenIsNotAdmin = defineKnownError(
  "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
  401,
  () => ({
    message:
      "The admin access token does not grant admin access to this project: it must be an internal-project token of a member of the team that owns the project.",
  }),
  InvalidAdminAccessToken,
);

export const ExpectedInternalProject = defineKnownError(
  "EXPECTED_INTERNAL_PROJECT",
  401,
  () => ({ message: "This endpoint is only available on the internal project." }),
  ProjectAuthenticationError,
);

export const CurrentProjectNotFound = defineKnownError("CURRENT_PROJECT_NOT_FOUND", 400, (projectId: string) => ({
  message: `The project ${JSON.stringify(projectId)} in the x-stack-project-id header does not exist.`,
  details: { project_id: projectId },
}));

export const BranchDoesNotExist = defineKnownError("BRANCH_DOES_NOT_EXIST", 400, (branchId: string) => ({
  message: `The branch ${JSON.stringify(branchId)} does not exist in this project.`,
  details: { branch_id: branchId },
}));
