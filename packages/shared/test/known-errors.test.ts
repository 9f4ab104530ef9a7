import { describe, it, expect } from "vitest";
import {
  KnownError,
  KnownErrors as K,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  allKnownErrorCodes,
  knownErrorClassByCode,
  knownErrorFromJson,
} from "../src/index.ts";

type Ctor = abstract new (...args: any[]) => KnownError;

interface Row {
  code: string;
  status: number;
  make: () => KnownError;
  cls: Ctor;
  /** Expected details keys in order; omit for codes without details. */
  details?: string[];
  family?: Ctor;
  /** Exact message, for codes whose words are fixed. */
  message?: string;
}

const FAMILIES: Record<string, Ctor> = {
  ProjectAuthenticationError: K.ProjectAuthenticationError,
  InvalidProjectAuthentication: K.InvalidProjectAuthentication,
  InvalidAdminAccessToken: K.InvalidAdminAccessToken,
  InvalidAccessToken: K.InvalidAccessToken,
  PasswordRequirementsNotMet: K.PasswordRequirementsNotMet,
  ApiKeyNotValid: K.ApiKeyNotValid,
  VerificationCodeError: K.VerificationCodeError,
};

const ID = "3f1c2a4e-7b1d-4c2e-9a3f-1b2c3d4e5f60";
const ID2 = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/** Every code of the error catalogue, project-authentication codes included. */
const TABLE: Row[] = [
  // General
  { code: "UNSUPPORTED_ERROR", status: 500, cls: K.UnsupportedError, make: () => new K.UnsupportedError("x"), details: ["operation"] },
  { code: "BODY_PARSING_ERROR", status: 400, cls: K.BodyParsingError, make: () => new K.BodyParsingError("Invalid JSON in request body") },
  {
    code: "SCHEMA_ERROR",
    status: 400,
    cls: K.SchemaError,
    make: () => new K.SchemaError("Request validation failed on GET /x:\n  - body.a must be defined"),
    details: ["message"],
  },
  {
    code: "ALL_OVERLOADS_FAILED",
    status: 400,
    cls: K.AllOverloadsFailed,
    make: () => new K.AllOverloadsFailed([{ a: 1 }]),
    details: ["overload_errors"],
  },

  // Project authentication
  {
    code: "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
    status: 400,
    cls: K.ProjectKeyWithoutAccessType,
    make: () => new K.ProjectKeyWithoutAccessType(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "INVALID_ACCESS_TYPE",
    status: 400,
    cls: K.InvalidAccessType,
    make: () => new K.InvalidAccessType("bogus"),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "ACCESS_TYPE_WITHOUT_PROJECT_ID",
    status: 400,
    cls: K.AccessTypeWithoutProjectId,
    make: () => new K.AccessTypeWithoutProjectId("client"),
    details: ["request_type"],
    family: K.ProjectAuthenticationError,
  },
  {
    code: "ACCESS_TYPE_REQUIRED",
    status: 400,
    cls: K.AccessTypeRequired,
    make: () => new K.AccessTypeRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "INSUFFICIENT_ACCESS_TYPE",
    status: 401,
    cls: K.InsufficientAccessType,
    make: () => new K.InsufficientAccessType("client", ["server", "admin"]),
    details: ["actual_access_type", "allowed_access_types"],
    family: K.ProjectAuthenticationError,
  },
  {
    code: "INVALID_PUBLISHABLE_CLIENT_KEY",
    status: 401,
    cls: K.InvalidPublishableClientKey,
    make: () => new K.InvalidPublishableClientKey(ID),
    details: ["project_id"],
    family: K.InvalidProjectAuthentication,
  },
  {
    code: "INVALID_SECRET_SERVER_KEY",
    status: 401,
    cls: K.InvalidSecretServerKey,
    make: () => new K.InvalidSecretServerKey(ID),
    details: ["project_id"],
    family: K.InvalidProjectAuthentication,
  },
  {
    code: "INVALID_SUPER_SECRET_ADMIN_KEY",
    status: 401,
    cls: K.InvalidSuperSecretAdminKey,
    make: () => new K.InvalidSuperSecretAdminKey(ID),
    details: ["project_id"],
    family: K.InvalidProjectAuthentication,
  },
  {
    code: "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    status: 401,
    cls: K.PublishableClientKeyRequiredForProject,
    make: () => new K.PublishableClientKeyRequiredForProject(ID),
    details: ["project_id"],
    family: K.ProjectAuthenticationError,
  },
  {
    code: "CLIENT_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.ClientAuthenticationRequired,
    make: () => new K.ClientAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "SERVER_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.ServerAuthenticationRequired,
    make: () => new K.ServerAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.ClientOrServerAuthenticationRequired,
    make: () => new K.ClientOrServerAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.ClientOrAdminAuthenticationRequired,
    make: () => new K.ClientOrAdminAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.ClientOrServerOrAdminAuthenticationRequired,
    make: () => new K.ClientOrServerOrAdminAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "ADMIN_AUTHENTICATION_REQUIRED",
    status: 401,
    cls: K.AdminAuthenticationRequired,
    make: () => new K.AdminAuthenticationRequired(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "UNPARSABLE_ADMIN_ACCESS_TOKEN",
    status: 401,
    cls: K.UnparsableAdminAccessToken,
    make: () => new K.UnparsableAdminAccessToken(),
    family: K.InvalidAdminAccessToken,
  },
  {
    code: "ADMIN_ACCESS_TOKEN_EXPIRED",
    status: 401,
    cls: K.AdminAccessTokenExpired,
    make: () => new K.AdminAccessTokenExpired(new Date(1_700_000_000_000)),
    details: ["expired_at_millis"],
    family: K.InvalidAdminAccessToken,
  },
  {
    code: "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
    status: 401,
    cls: K.InvalidProjectForAdminAccessToken,
    make: () => new K.InvalidProjectForAdminAccessToken(),
    family: K.InvalidAdminAccessToken,
  },
  {
    code: "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
    status: 401,
    cls: K.AdminAccessTokenIsNotAdmin,
    make: () => new K.AdminAccessTokenIsNotAdmin(),
    family: K.InvalidAdminAccessToken,
  },
  {
    code: "EXPECTED_INTERNAL_PROJECT",
    status: 401,
    cls: K.ExpectedInternalProject,
    make: () => new K.ExpectedInternalProject(),
    family: K.ProjectAuthenticationError,
  },
  {
    code: "CURRENT_PROJECT_NOT_FOUND",
    status: 400,
    cls: K.CurrentProjectNotFound,
    make: () => new K.CurrentProjectNotFound(ID),
    details: ["project_id"],
  },
  {
    code: "BRANCH_DOES_NOT_EXIST",
    status: 400,
    cls: K.BranchDoesNotExist,
    make: () => new K.BranchDoesNotExist("dev"),
    details: ["branch_id"],
  },

  // Session
  {
    code: "UNPARSABLE_ACCESS_TOKEN",
    status: 401,
    cls: K.UnparsableAccessToken,
    make: () => new K.UnparsableAccessToken(),
    family: K.InvalidAccessToken,
  },
  {
    code: "ACCESS_TOKEN_EXPIRED",
    status: 401,
    cls: K.AccessTokenExpired,
    make: () => new K.AccessTokenExpired(new Date(1_700_000_000_000), ID, ID2, null),
    details: ["expired_at_millis", "project_id", "user_id", "refresh_token_id"],
    family: K.InvalidAccessToken,
  },
  {
    code: "INVALID_PROJECT_FOR_ACCESS_TOKEN",
    status: 401,
    cls: K.InvalidProjectForAccessToken,
    make: () => new K.InvalidProjectForAccessToken(ID, ID2),
    details: ["expected_project_id", "actual_project_id"],
    family: K.InvalidAccessToken,
  },
  {
    code: "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    status: 401,
    cls: K.RefreshTokenNotFoundOrExpired,
    make: () => new K.RefreshTokenNotFoundOrExpired(),
  },
  { code: "CANNOT_DELETE_CURRENT_SESSION", status: 400, cls: K.CannotDeleteCurrentSession, make: () => new K.CannotDeleteCurrentSession() },
  { code: "PROVIDER_REJECTED", status: 401, cls: K.ProviderRejected, make: () => new K.ProviderRejected() },
  {
    code: "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    status: 401,
    cls: K.AnonymousAuthenticationNotAllowed,
    make: () => new K.AnonymousAuthenticationNotAllowed(),
  },
  {
    code: "RESTRICTED_USER_NOT_ALLOWED",
    status: 403,
    cls: K.RestrictedUserNotAllowed,
    make: () => new K.RestrictedUserNotAllowed({ type: "email_not_verified" }),
    details: ["restricted_reason"],
  },

  // Users
  {
    code: "USER_EMAIL_ALREADY_EXISTS",
    status: 409,
    cls: K.UserWithEmailAlreadyExists,
    make: () => new K.UserWithEmailAlreadyExists("a@example.com", true),
    details: ["email", "would_work_if_email_was_verified"],
  },
  { code: "EMAIL_NOT_VERIFIED", status: 400, cls: K.EmailNotVerified, make: () => new K.EmailNotVerified() },
  {
    code: "CANNOT_GET_OWN_USER_WITHOUT_USER",
    status: 400,
    cls: K.CannotGetOwnUserWithoutUser,
    make: () => new K.CannotGetOwnUserWithoutUser(),
  },
  {
    code: "USER_ID_DOES_NOT_EXIST",
    status: 400,
    cls: K.UserIdDoesNotExist,
    make: () => new K.UserIdDoesNotExist(ID),
    details: ["user_id"],
  },
  { code: "USER_NOT_FOUND", status: 404, cls: K.UserNotFound, make: () => new K.UserNotFound() },
  { code: "USER_AUTHENTICATION_REQUIRED", status: 401, cls: K.UserAuthenticationRequired, make: () => new K.UserAuthenticationRequired() },
  { code: "USER_DOES_NOT_HAVE_PASSWORD", status: 400, cls: K.UserDoesNotHavePassword, make: () => new K.UserDoesNotHavePassword() },

  // Project
  { code: "PROJECT_NOT_FOUND", status: 404, cls: K.ProjectNotFound, make: () => new K.ProjectNotFound(ID), details: ["project_id"] },
  { code: "SIGN_UP_NOT_ENABLED", status: 400, cls: K.SignUpNotEnabled, make: () => new K.SignUpNotEnabled() },
  {
    code: "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    status: 400,
    cls: K.PasswordAuthenticationNotEnabled,
    make: () => new K.PasswordAuthenticationNotEnabled(),
  },
  {
    code: "PASSKEY_AUTHENTICATION_NOT_ENABLED",
    status: 400,
    cls: K.PasskeyAuthenticationNotEnabled,
    make: () => new K.PasskeyAuthenticationNotEnabled(),
  },
  {
    code: "ANONYMOUS_ACCOUNTS_NOT_ENABLED",
    status: 400,
    cls: K.AnonymousAccountsNotEnabled,
    make: () => new K.AnonymousAccountsNotEnabled(),
  },

  // Credentials
  {
    code: "EMAIL_PASSWORD_MISMATCH",
    status: 400,
    cls: K.EmailPasswordMismatch,
    make: () => new K.EmailPasswordMismatch(),
    message: "Wrong e-mail or password.",
  },
  {
    code: "REDIRECT_URL_NOT_WHITELISTED",
    status: 400,
    cls: K.RedirectUrlNotWhitelisted,
    make: () => new K.RedirectUrlNotWhitelisted(),
  },
  {
    code: "PASSWORD_TOO_SHORT",
    status: 400,
    cls: K.PasswordTooShort,
    make: () => new K.PasswordTooShort(PASSWORD_MIN_LENGTH),
    details: ["min_length"],
    family: K.PasswordRequirementsNotMet,
    message: "Password too short. Minimum length is 8.",
  },
  {
    code: "PASSWORD_TOO_LONG",
    status: 400,
    cls: K.PasswordTooLong,
    make: () => new K.PasswordTooLong(PASSWORD_MAX_LENGTH),
    details: ["maxLength"],
    family: K.PasswordRequirementsNotMet,
    message: "Password too long. Maximum length is 70.",
  },
  {
    code: "PASSWORD_CONFIRMATION_MISMATCH",
    status: 400,
    cls: K.PasswordConfirmationMismatch,
    make: () => new K.PasswordConfirmationMismatch(),
    message: "Passwords do not match.",
  },
  {
    code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    status: 400,
    cls: K.MultiFactorAuthenticationRequired,
    make: () => new K.MultiFactorAuthenticationRequired("attempt-code"),
    details: ["attempt_code"],
  },
  { code: "INVALID_TOTP_CODE", status: 400, cls: K.InvalidTotpCode, make: () => new K.InvalidTotpCode() },

  // Bot challenge
  { code: "BOT_CHALLENGE_REQUIRED", status: 409, cls: K.BotChallengeRequired, make: () => new K.BotChallengeRequired() },
  {
    code: "BOT_CHALLENGE_FAILED",
    status: 400,
    cls: K.BotChallengeFailed,
    make: () => new K.BotChallengeFailed("The visible bot challenge did not pass."),
    details: ["message"],
  },

  // Verification
  {
    code: "VERIFICATION_CODE_NOT_FOUND",
    status: 404,
    cls: K.VerificationCodeNotFound,
    make: () => new K.VerificationCodeNotFound(),
    family: K.VerificationCodeError,
  },
  {
    code: "VERIFICATION_CODE_EXPIRED",
    status: 400,
    cls: K.VerificationCodeExpired,
    make: () => new K.VerificationCodeExpired(),
    family: K.VerificationCodeError,
  },
  {
    code: "VERIFICATION_CODE_ALREADY_USED",
    status: 409,
    cls: K.VerificationCodeAlreadyUsed,
    make: () => new K.VerificationCodeAlreadyUsed(),
    family: K.VerificationCodeError,
  },
  {
    code: "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    status: 400,
    cls: K.VerificationCodeMaxAttemptsReached,
    make: () => new K.VerificationCodeMaxAttemptsReached(),
    family: K.VerificationCodeError,
  },
  { code: "EMAIL_ALREADY_VERIFIED", status: 409, cls: K.EmailAlreadyVerified, make: () => new K.EmailAlreadyVerified() },
  {
    code: "EMAIL_NOT_ASSOCIATED_WITH_USER",
    status: 400,
    cls: K.EmailNotAssociatedWithUser,
    make: () => new K.EmailNotAssociatedWithUser(),
  },
  {
    code: "EMAIL_IS_NOT_PRIMARY_EMAIL",
    status: 400,
    cls: K.EmailIsNotPrimaryEmail,
    make: () => new K.EmailIsNotPrimaryEmail("b@example.com", "a@example.com"),
    details: ["email", "primary_email"],
  },

  // Passkey
  {
    code: "PASSKEY_REGISTRATION_FAILED",
    status: 400,
    cls: K.PasskeyRegistrationFailed,
    make: () => new K.PasskeyRegistrationFailed("challenge mismatch"),
  },
  {
    code: "PASSKEY_WEBAUTHN_ERROR",
    status: 400,
    cls: K.PasskeyWebauthnError,
    make: () => new K.PasskeyWebauthnError("The operation was aborted.", "ERROR_CEREMONY_ABORTED"),
    details: ["message", "code"],
  },
  {
    code: "PASSKEY_AUTHENTICATION_FAILED",
    status: 400,
    cls: K.PasskeyAuthenticationFailed,
    make: () => new K.PasskeyAuthenticationFailed("unknown credential"),
  },

  // Permissions and teams
  {
    code: "PERMISSION_NOT_FOUND",
    status: 404,
    cls: K.PermissionNotFound,
    make: () => new K.PermissionNotFound("read"),
    details: ["permission_id"],
  },
  {
    code: "WRONG_PERMISSION_SCOPE",
    status: 404,
    cls: K.WrongPermissionScope,
    make: () => new K.WrongPermissionScope("read", "team", "project"),
    details: ["permission_id", "expected_scope", "actual_scope"],
  },
  {
    code: "CONTAINED_PERMISSION_NOT_FOUND",
    status: 400,
    cls: K.ContainedPermissionNotFound,
    make: () => new K.ContainedPermissionNotFound("read"),
    details: ["permission_id"],
  },
  {
    code: "PERMISSION_ID_ALREADY_EXISTS",
    status: 400,
    cls: K.PermissionIdAlreadyExists,
    make: () => new K.PermissionIdAlreadyExists("read"),
    details: ["permission_id"],
  },
  { code: "TEAM_NOT_FOUND", status: 404, cls: K.TeamNotFound, make: () => new K.TeamNotFound(ID), details: ["team_id"] },
  { code: "TEAM_ALREADY_EXISTS", status: 409, cls: K.TeamAlreadyExists, make: () => new K.TeamAlreadyExists(ID), details: ["team_id"] },
  {
    code: "TEAM_MEMBERSHIP_NOT_FOUND",
    status: 404,
    cls: K.TeamMembershipNotFound,
    make: () => new K.TeamMembershipNotFound(ID, ID2),
    details: ["team_id", "user_id"],
  },
  {
    code: "TEAM_MEMBERSHIP_ALREADY_EXISTS",
    status: 409,
    cls: K.TeamMembershipAlreadyExists,
    make: () => new K.TeamMembershipAlreadyExists(),
  },
  {
    code: "PROJECT_PERMISSION_REQUIRED",
    status: 401,
    cls: K.ProjectPermissionRequired,
    make: () => new K.ProjectPermissionRequired(ID2, "read"),
    details: ["user_id", "permission_id"],
  },
  {
    code: "TEAM_PERMISSION_REQUIRED",
    status: 401,
    cls: K.TeamPermissionRequired,
    make: () => new K.TeamPermissionRequired(ID, ID2, "$invite_members"),
    details: ["team_id", "user_id", "permission_id"],
  },
  {
    code: "TEAM_PERMISSION_NOT_FOUND",
    status: 401,
    cls: K.TeamPermissionNotFound,
    make: () => new K.TeamPermissionNotFound(ID, ID2, "$invite_members"),
    details: ["team_id", "user_id", "permission_id"],
  },
  {
    code: "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
    status: 403,
    cls: K.TeamInvitationRestrictedUserNotAllowed,
    make: () => new K.TeamInvitationRestrictedUserNotAllowed({ type: "email_not_verified" }),
    details: ["restricted_reason"],
  },

  // OAuth
  {
    code: "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    status: 400,
    cls: K.OAuthConnectionNotConnectedToUser,
    make: () => new K.OAuthConnectionNotConnectedToUser(),
  },
  {
    code: "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
    status: 409,
    cls: K.OAuthConnectionAlreadyConnectedToAnotherUser,
    make: () => new K.OAuthConnectionAlreadyConnectedToAnotherUser(),
  },
  {
    code: "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    status: 400,
    cls: K.OAuthConnectionDoesNotHaveRequiredScope,
    make: () => new K.OAuthConnectionDoesNotHaveRequiredScope(),
  },
  {
    code: "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    status: 400,
    cls: K.OAuthExtraScopeNotAvailableWithSharedOAuthKeys,
    make: () => new K.OAuthExtraScopeNotAvailableWithSharedOAuthKeys(),
  },
  {
    code: "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    status: 400,
    cls: K.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
    make: () => new K.OAuthAccessTokenNotAvailableWithSharedOAuthKeys(),
  },
  {
    code: "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    status: 400,
    cls: K.InvalidOAuthClientIdOrSecret,
    make: () => new K.InvalidOAuthClientIdOrSecret("client-123"),
    details: ["client_id"],
  },
  { code: "INVALID_SCOPE", status: 400, cls: K.InvalidScope, make: () => new K.InvalidScope("bogus") },
  { code: "INVALID_ID_TOKEN", status: 400, cls: K.InvalidIdToken, make: () => new K.InvalidIdToken() },
  {
    code: "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
    status: 409,
    cls: K.UserAlreadyConnectedToAnotherOAuthConnection,
    make: () => new K.UserAlreadyConnectedToAnotherOAuthConnection(),
  },
  {
    code: "OUTER_OAUTH_TIMEOUT",
    status: 408,
    cls: K.OuterOAuthTimeout,
    make: () => new K.OuterOAuthTimeout(),
    message: "The OAuth flow has timed out. Please sign in again.",
  },
  {
    code: "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    status: 400,
    cls: K.OAuthProviderNotFoundOrNotEnabled,
    make: () => new K.OAuthProviderNotFoundOrNotEnabled(),
  },
  {
    code: "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
    status: 400,
    cls: K.OAuthProviderAccountIdAlreadyUsedForSignIn,
    make: () => new K.OAuthProviderAccountIdAlreadyUsedForSignIn(),
  },
  {
    code: "INVALID_SHARED_OAUTH_PROVIDER_ID",
    status: 400,
    cls: K.InvalidSharedOAuthProviderId,
    make: () => new K.InvalidSharedOAuthProviderId("twitch"),
    details: ["provider_id"],
  },
  {
    code: "INVALID_STANDARD_OAUTH_PROVIDER_ID",
    status: 400,
    cls: K.InvalidStandardOAuthProviderId,
    make: () => new K.InvalidStandardOAuthProviderId("myspace"),
    details: ["provider_id"],
  },
  { code: "INVALID_AUTHORIZATION_CODE", status: 400, cls: K.InvalidAuthorizationCode, make: () => new K.InvalidAuthorizationCode() },
  { code: "OAUTH_PROVIDER_ACCESS_DENIED", status: 400, cls: K.OAuthProviderAccessDenied, make: () => new K.OAuthProviderAccessDenied() },
  {
    code: "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
    status: 503,
    cls: K.OAuthProviderTemporarilyUnavailable,
    make: () => new K.OAuthProviderTemporarilyUnavailable(),
  },
  {
    code: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    status: 409,
    cls: K.ContactChannelAlreadyUsedForAuthBySomeoneElse,
    make: () => new K.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", "a@example.com", true),
    details: ["type", "contact_channel_value", "would_work_if_email_was_verified"],
  },

  // CLI and polling
  { code: "INVALID_POLLING_CODE", status: 400, cls: K.InvalidPollingCode, make: () => new K.InvalidPollingCode() },
  { code: "CLI_AUTH_ERROR", status: 400, cls: K.CliAuthError, make: () => new K.CliAuthError("Something went wrong.") },
  {
    code: "CLI_AUTH_EXPIRED_ERROR",
    status: 400,
    cls: K.CliAuthExpiredError,
    make: () => new K.CliAuthExpiredError(),
    message: "CLI authentication request expired. Please try again.",
  },
  {
    code: "CLI_AUTH_USED_ERROR",
    status: 400,
    cls: K.CliAuthUsedError,
    make: () => new K.CliAuthUsedError(),
    message: "This authentication token has already been used.",
  },

  // API keys
  { code: "API_KEY_EXPIRED", status: 401, cls: K.ApiKeyExpired, make: () => new K.ApiKeyExpired(), family: K.ApiKeyNotValid },
  { code: "API_KEY_REVOKED", status: 401, cls: K.ApiKeyRevoked, make: () => new K.ApiKeyRevoked(), family: K.ApiKeyNotValid },
  {
    code: "WRONG_API_KEY_TYPE",
    status: 400,
    cls: K.WrongApiKeyType,
    make: () => new K.WrongApiKeyType("user", "team"),
    details: ["expected_type", "actual_type"],
    family: K.ApiKeyNotValid,
  },
  { code: "API_KEY_NOT_FOUND", status: 404, cls: K.ApiKeyNotFound, make: () => new K.ApiKeyNotFound(), family: K.ApiKeyNotValid },
  {
    code: "PUBLIC_API_KEY_CANNOT_BE_REVOKED",
    status: 400,
    cls: K.PublicApiKeyCannotBeRevoked,
    make: () => new K.PublicApiKeyCannotBeRevoked(),
  },

  // Email
  { code: "EMAIL_TEMPLATE_ALREADY_EXISTS", status: 409, cls: K.EmailTemplateAlreadyExists, make: () => new K.EmailTemplateAlreadyExists() },
  {
    code: "EMAIL_RENDERING_ERROR",
    status: 400,
    cls: K.EmailRenderingError,
    make: () => new K.EmailRenderingError("Unexpected token"),
    details: ["error"],
  },
  { code: "REQUIRES_CUSTOM_EMAIL_SERVER", status: 400, cls: K.RequiresCustomEmailServer, make: () => new K.RequiresCustomEmailServer() },

  // Payments
  { code: "ITEM_NOT_FOUND", status: 404, cls: K.ItemNotFound, make: () => new K.ItemNotFound("credits"), details: ["item_id"] },
  {
    code: "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
    status: 400,
    cls: K.ItemCustomerTypeDoesNotMatch,
    make: () => new K.ItemCustomerTypeDoesNotMatch("credits", ID, "team", "user"),
    details: ["item_id", "customer_id", "item_customer_type", "actual_customer_type"],
  },
  {
    code: "CUSTOMER_DOES_NOT_EXIST",
    status: 400,
    cls: K.CustomerDoesNotExist,
    make: () => new K.CustomerDoesNotExist(ID),
    details: ["customer_id"],
  },
  {
    code: "OFFER_DOES_NOT_EXIST",
    status: 400,
    cls: K.OfferDoesNotExist,
    make: () => new K.OfferDoesNotExist("pro"),
    details: ["offer_id"],
  },
  {
    code: "OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH",
    status: 400,
    cls: K.OfferCustomerTypeDoesNotMatch,
    make: () => new K.OfferCustomerTypeDoesNotMatch("pro", ID, "team", "user"),
    details: ["offer_id", "customer_id", "offer_customer_type", "actual_customer_type"],
  },
  {
    code: "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
    status: 400,
    cls: K.ItemQuantityInsufficientAmount,
    make: () => new K.ItemQuantityInsufficientAmount("credits", ID, -5),
    details: ["item_id", "customer_id", "quantity"],
  },
  { code: "STRIPE_ACCOUNT_INFO_NOT_FOUND", status: 404, cls: K.StripeAccountInfoNotFound, make: () => new K.StripeAccountInfoNotFound() },
  {
    code: "PRODUCT_DOES_NOT_EXIST",
    status: 400,
    cls: K.ProductDoesNotExist,
    make: () => new K.ProductDoesNotExist("pro", "server_only"),
    details: ["product_id", "context"],
  },
  {
    code: "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
    status: 400,
    cls: K.ProductCustomerTypeDoesNotMatch,
    make: () => new K.ProductCustomerTypeDoesNotMatch("pro", ID, "team", "user"),
    details: ["product_id", "customer_id", "product_customer_type", "actual_customer_type"],
  },
  {
    code: "PRODUCT_ALREADY_GRANTED",
    status: 400,
    cls: K.ProductAlreadyGranted,
    make: () => new K.ProductAlreadyGranted("pro", ID),
    details: ["product_id", "customer_id"],
  },
  {
    code: "SUBSCRIPTION_INVOICE_NOT_FOUND",
    status: 404,
    cls: K.SubscriptionInvoiceNotFound,
    make: () => new K.SubscriptionInvoiceNotFound(ID),
    details: ["subscription_invoice_id"],
  },
  {
    code: "ONE_TIME_PURCHASE_NOT_FOUND",
    status: 404,
    cls: K.OneTimePurchaseNotFound,
    make: () => new K.OneTimePurchaseNotFound(ID),
    details: ["one_time_purchase_id"],
  },
  {
    code: "SUBSCRIPTION_ALREADY_REFUNDED",
    status: 400,
    cls: K.SubscriptionAlreadyRefunded,
    make: () => new K.SubscriptionAlreadyRefunded(ID),
    details: ["subscription_id"],
  },
  {
    code: "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
    status: 400,
    cls: K.OneTimePurchaseAlreadyRefunded,
    make: () => new K.OneTimePurchaseAlreadyRefunded(ID),
    details: ["one_time_purchase_id"],
  },
  {
    code: "TEST_MODE_PURCHASE_NON_REFUNDABLE",
    status: 400,
    cls: K.TestModePurchaseNonRefundable,
    make: () => new K.TestModePurchaseNonRefundable(),
  },
  {
    code: "DEFAULT_PAYMENT_METHOD_REQUIRED",
    status: 400,
    cls: K.DefaultPaymentMethodRequired,
    make: () => new K.DefaultPaymentMethodRequired("user", ID),
    details: ["customer_type", "customer_id"],
  },
  { code: "NEW_PURCHASES_BLOCKED", status: 403, cls: K.NewPurchasesBlocked, make: () => new K.NewPurchasesBlocked() },

  // Other
  {
    code: "DATA_VAULT_STORE_DOES_NOT_EXIST",
    status: 400,
    cls: K.DataVaultStoreDoesNotExist,
    make: () => new K.DataVaultStoreDoesNotExist("secrets"),
    details: ["store_id"],
  },
  {
    code: "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
    status: 400,
    cls: K.DataVaultStoreHashedKeyDoesNotExist,
    make: () => new K.DataVaultStoreHashedKeyDoesNotExist("secrets", "abc123"),
    details: ["store_id", "hashed_key"],
  },
  { code: "WORKFLOW_TOKEN_DOES_NOT_EXIST", status: 400, cls: K.WorkflowTokenDoesNotExist, make: () => new K.WorkflowTokenDoesNotExist() },
  { code: "WORKFLOW_TOKEN_EXPIRED", status: 400, cls: K.WorkflowTokenExpired, make: () => new K.WorkflowTokenExpired() },
  {
    code: "WORKFLOW_NOT_FOUND",
    status: 404,
    cls: K.WorkflowNotFound,
    make: () => new K.WorkflowNotFound(ID),
    details: ["workflow_id"],
  },
  { code: "INFINITE_LOOP_DETECTED", status: 508, cls: K.InfiniteLoopDetected, make: () => new K.InfiniteLoopDetected() },

  // AI chat
  { code: "AI_CHAT_NOT_CONFIGURED", status: 501, cls: K.AiChatNotConfigured, make: () => new K.AiChatNotConfigured() },
  {
    code: "AI_CHAT_PROVIDER_ERROR",
    status: 502,
    cls: K.AiChatProviderError,
    make: () => new K.AiChatProviderError("status 500"),
    details: ["reason"],
  },
];

describe("known errors catalogue", () => {
  it("has one table row per code", () => {
    const codes = TABLE.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("every registered code is covered by the table (add a row when adding a code)", () => {
    const tested = new Set(TABLE.map((r) => r.code));
    const missing = allKnownErrorCodes().filter((c) => !tested.has(c));
    expect(missing).toEqual([]);
  });

  it("every table code is registered", () => {
    const registered = new Set(allKnownErrorCodes());
    expect(TABLE.map((r) => r.code).filter((c) => !registered.has(c))).toEqual([]);
  });

  describe.each(TABLE)("$code", (row) => {
    it("has the code, status and details keys", () => {
      const err = row.make();
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(KnownError);
      expect(err).toBeInstanceOf(row.cls);
      expect(err.code).toBe(row.code);
      expect(err.errorCode).toBe(row.code);
      expect((row.cls as unknown as { errorCode: string }).errorCode).toBe(row.code);
      expect(err.name).toBe(row.code);
      expect(err.statusCode).toBe(row.status);
      expect((row.cls as unknown as { code: string }).code).toBe(row.code);
      expect((row.cls as unknown as { statusCode: number }).statusCode).toBe(row.status);
      expect(knownErrorClassByCode(row.code)).toBe(row.cls);
      expect(typeof err.message).toBe("string");
      expect(err.message.length).toBeGreaterThan(0);
      if (row.details) {
        expect(err.details).toBeDefined();
        expect(Object.keys(err.details!)).toEqual(row.details);
      } else {
        expect(err.details).toBeUndefined();
      }
    });

    it("serialises as code, details (if any), error", () => {
      const err = row.make();
      const json = err.toJSON();
      expect(Object.keys(json)).toEqual(row.details ? ["code", "details", "error"] : ["code", "error"]);
      expect(json.code).toBe(row.code);
      expect(json.error).toBe(err.message);
      const parsed = JSON.parse(JSON.stringify(err)) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(Object.keys(json));
      for (const key of Object.keys(parsed.details ?? {})) expect(key).toMatch(/^[a-z][a-zA-Z_]*$/);
    });

    it("round-trips through knownErrorFromJson into the same class and family", () => {
      const err = row.make();
      const rebuilt = knownErrorFromJson(JSON.parse(JSON.stringify(err)));
      expect(rebuilt).not.toBeNull();
      expect(rebuilt).toBeInstanceOf(KnownError);
      expect(rebuilt).toBeInstanceOf(Error);
      expect(rebuilt).toBeInstanceOf(row.cls);
      expect(rebuilt!.code).toBe(row.code);
      expect(rebuilt!.errorCode).toBe(row.code);
      expect(rebuilt!.statusCode).toBe(row.status);
      expect(rebuilt!.message).toBe(err.message);
      expect(rebuilt!.details).toEqual(JSON.parse(JSON.stringify(err.details ?? null)) ?? undefined);
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(err));
      for (const [name, family] of Object.entries(FAMILIES)) {
        const expected = row.family === family;
        expect(err instanceof family, `${row.code} instanceof ${name}`).toBe(expected);
        expect(rebuilt instanceof family, `rebuilt ${row.code} instanceof ${name}`).toBe(expected);
      }
    });

    if (row.message !== undefined) {
      it("uses the fixed message verbatim", () => {
        expect(row.make().message).toBe(row.message);
        expect(row.make().toJSON().error).toBe(row.message);
      });
    }
  });

  it("keeps the exact words of the main fixed messages", () => {
    expect(new K.EmailPasswordMismatch().message).toBe("Wrong e-mail or password.");
    expect(new K.PasswordConfirmationMismatch().message).toBe("Passwords do not match.");
    expect(new K.PasswordTooShort(8).message).toBe("Password too short. Minimum length is 8.");
    expect(new K.PasswordTooLong(70).message).toBe("Password too long. Maximum length is 70.");
    expect(new K.OuterOAuthTimeout().message).toBe("The OAuth flow has timed out. Please sign in again.");
    expect(new K.CliAuthExpiredError().message).toBe("CLI authentication request expired. Please try again.");
    expect(new K.CliAuthUsedError().message).toBe("This authentication token has already been used.");
  });

  it("fills details with the expected wire keys and values", () => {
    expect(new K.PasswordTooShort(8).details).toEqual({ min_length: 8 });
    // Names no URL: no details at all.
    expect(new K.RedirectUrlNotWhitelisted().toJSON()).not.toHaveProperty("details");
    expect(new K.PasswordTooLong(70).details).toEqual({ maxLength: 70 });
    expect(new K.AccessTokenExpired(null).details).toEqual({
      expired_at_millis: null,
      project_id: null,
      user_id: null,
      refresh_token_id: null,
    });
    expect(new K.InvalidOAuthClientIdOrSecret().details).toEqual({ client_id: null });
    expect(new K.ContactChannelAlreadyUsedForAuthBySomeoneElse("email").details).toEqual({
      type: "email",
      contact_channel_value: null,
      would_work_if_email_was_verified: false,
    });
    expect(new K.PasskeyWebauthnError("aborted", "ERROR_CEREMONY_ABORTED").details).toEqual({
      message: "aborted",
      code: "ERROR_CEREMONY_ABORTED",
    });
    expect(new K.ItemQuantityInsufficientAmount("credits", "c1", -3).details).toEqual({
      item_id: "credits",
      customer_id: "c1",
      quantity: -3,
    });
  });

  it("knownErrorFromJson returns null for unknown codes and malformed bodies", () => {
    expect(knownErrorFromJson({ code: "NOT_A_REAL_CODE", error: "nope" })).toBeNull();
    expect(knownErrorFromJson({ code: "", error: "nope" })).toBeNull();
    expect(knownErrorFromJson(null)).toBeNull();
    expect(knownErrorFromJson(undefined)).toBeNull();
    expect(knownErrorFromJson("USER_NOT_FOUND")).toBeNull();
    expect(knownErrorFromJson(404)).toBeNull();
    expect(knownErrorFromJson([])).toBeNull();
    expect(knownErrorFromJson(["USER_NOT_FOUND", "User not found."])).toBeNull();
    expect(knownErrorFromJson({})).toBeNull();
    expect(knownErrorFromJson({ code: "USER_NOT_FOUND" })).toBeNull();
    expect(knownErrorFromJson({ error: "User not found." })).toBeNull();
    expect(knownErrorFromJson({ code: 404, error: "User not found." })).toBeNull();
    expect(knownErrorFromJson({ code: "USER_NOT_FOUND", error: 42 })).toBeNull();
  });
});
