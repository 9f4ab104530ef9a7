/**
 * @latchkey/js — the Latchkey SDK. Three apps, one per access level:
 * `StackClientApp` (end users' browsers and clients), `StackServerApp`
 * (your backend, with the secret server key) and `StackAdminApp` (project
 * management). Errors with a code are the catalogue's classes, `KnownErrors.*`.
 */
/** TOTP as the server checks it, for apps that enrol authenticator apps themselves. */
export { TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_SECRET_BYTES } from "@latchkey/shared/constants";
/** The OAuth providers a project can enable. */
export { OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/shared/constants";
export { CURRENCIES, type Currency } from "@latchkey/shared/constants";
export { defaultChargeCurrency, priceCurrencies } from "@latchkey/shared/money";
export { StackClientApp, type StackClientAppOptions, type GetUserOptions, type RedirectToOptions } from "./apps/client-app.ts";
export {
  StackServerApp,
  type StackServerAppOptions,
  type ServerUserCreateOptions,
  type ListUsersOptions,
  type SendEmailOptions,
  type SendEmailResult,
  type ServerOAuthProviderCreateOptions,
} from "./apps/server-app.ts";
export {
  StackAdminApp,
  type StackAdminAppOptions,
  type InternalApiKeyCreateOptions,
  type ExportUsersOptions,
  type PaymentsTestClock,
} from "./apps/admin-app.ts";
export type {
  SentEmail,
  OutboxEmail,
  EmailTheme,
  EmailThemeWithSource,
  EmailTemplate,
  EmailDraft,
  SendTestEmailResult,
  SmtpSettings,
  ThemeChoice,
} from "./apps/admin-emails.ts";
export type { ChatContent, ChatContextType } from "./apps/admin-ai-chat.ts";
export type { WebhooksToken } from "./apps/admin-webhooks.ts";
export type {
  ListTransactionsOptions,
  RefundTransactionOptions,
  Transaction,
  TransactionEntry,
  TransactionsPage,
} from "./apps/admin-transactions.ts";
export type { Workflow, WorkflowCreateOptions, WorkflowRun, WorkflowUpdateOptions } from "./apps/admin-workflows.ts";
export { CurrentUser } from "./models/current-user.ts";
export type {
  ApiKey,
  ApiKeyType,
  ApiKeyCreationOptions,
  ApiKeyUpdateOptions,
  UserApiKey,
  UserApiKeyFirstView,
  TeamApiKey,
  TeamApiKeyFirstView,
} from "./models/user-team-api-key.ts";
export type { Item, ServerItem, GetItemOptions, ItemCustomerOptions, ItemQuantityChangeOptions } from "./models/item.ts";
export type {
  CustomerProduct,
  CustomerProductsList,
  CustomerProductsListOptions,
  CustomerProductsRequestOptions,
  CheckoutUrlOptions,
  GrantProductOptions,
  CancelSubscriptionOptions,
  SwitchSubscriptionOptions,
  InlineProduct,
} from "./models/product.ts";
export type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoice,
  CustomerInvoiceStatus,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./models/billing.ts";
export type { PurchaseCardSettings, PurchaseCodeInfo, PurchaseSessionOptions } from "./apps/purchase-codes.ts";
export type { StripeCardForm } from "./models/stripe-card-form.ts";
export { ServerUser } from "./models/server-user.ts";
export type { ServerOnlyUserFields } from "./models/server-user-fields.ts";
export { CurrentServerUser } from "./models/current-server-user.ts";
export type { User, UserUpdateOptions, ServerUserUpdateOptions } from "./models/user-fields.ts";
export { CurrentInternalUser, AdminOwnedProject, type AdminProjectCreateOptions } from "./models/internal-user.ts";
export { AdminProject, type AdminProjectConfig, type AdminProjectUpdateOptions, type ProductionModeError } from "./models/admin-project.ts";
export type {
  CompleteConfig,
  ConfigLevel,
  ConfigOverride,
  PushConfigOptions,
  PushedConfigSource,
  ResettableConfigLevel,
} from "./models/project-config.ts";
export type { Project } from "./models/project.ts";
export {
  Team,
  ServerTeam,
  type TeamCreateOptions,
  type ServerTeamCreateOptions,
  type TeamUpdateOptions,
  type ServerTeamUpdateOptions,
} from "./models/team.ts";
export type {
  TeamUser,
  ServerTeamUser,
  TeamMemberProfile,
  EditableTeamMemberProfile,
  TeamMemberProfileUpdateOptions,
  TeamInvitation,
  UserTeamInvitation,
} from "./models/team-member.ts";
export type {
  TeamPermission,
  ProjectPermission,
  AdminTeamPermission,
  AdminProjectPermission,
  AdminPermissionDefinition,
  AdminTeamPermissionDefinition,
  AdminProjectPermissionDefinition,
  PermissionDefinitionCreateOptions,
  PermissionDefinitionUpdateOptions,
  AdminTeamPermissionDefinitionCreateOptions,
  AdminTeamPermissionDefinitionUpdateOptions,
  AdminProjectPermissionDefinitionCreateOptions,
  AdminProjectPermissionDefinitionUpdateOptions,
} from "./models/permission.ts";
export type { PermissionListOptions, TeamRef } from "./models/user-teams.ts";
export { UserWithTeams } from "./models/user-with-teams.ts";
export type { TeamInvitationDetails } from "./apps/team-invitations.ts";
export type { ActiveSession } from "./models/session.ts";
export {
  ContactChannel,
  type ContactChannelCreateOptions,
  type ContactChannelUpdateOptions,
  type ServerContactChannelCreateOptions,
  type ServerContactChannelUpdateOptions,
} from "./models/contact-channel.ts";
export type { VerificationCodeError, SendMagicLinkError } from "./apps/email-codes.ts";
export type { BotChallenge, BotChallengeError } from "./apps/bot-challenge.ts";
export type { SignInError, SignUpError, MfaSignInError } from "./apps/credentials.ts";
export type { PromptCliLoginOptions, CliLoginError, CliConfirmError, CliAuthError } from "./apps/cli-login.ts";
export type { DataVaultStore, DataVaultOptions } from "./apps/data-vault.ts";
export type { PasskeyRegistrationError, PasskeySignInError } from "./apps/passkeys.ts";
export { Passkey } from "./models/passkey.ts";
export {
  OAuthProvider,
  ServerOAuthProvider,
  type OAuthProviderUpdateOptions,
  type ServerOAuthProviderUpdateOptions,
  type OAuthProviderUpdateError,
} from "./models/oauth-provider.ts";
export type {
  OAuthConnection,
  GetConnectedAccountOptions,
  ConnectedAccount,
  ConnectedAccountTokenError,
} from "./models/connected-account.ts";
export type { OAuthSignInOptions, OAuthScopesOnSignIn } from "./apps/oauth-sign-in.ts";
export type { OAuthFlowOfPage, OAuthFlowType } from "./apps/oauth-flow.ts";
export { NotificationCategory } from "./models/notification-category.ts";
export type { InternalApiKey, InternalApiKeyFirstView } from "./models/api-key.ts";
export type {
  ProjectMetrics,
  MetricsDataPoint,
  MetricsLoginMethod,
  MetricsAuthOverview,
  MetricsEmailOverview,
  MetricsPaymentsOverview,
  MetricsAnalyticsOverview,
} from "./models/metrics.ts";
export type { Json } from "./models/json.ts";
export { Session, type Tokens } from "./session/session.ts";
export type { CacheEntry, CacheSnapshot } from "./cache/index.ts";
export type { TokenStoreInit } from "./session/token-store.ts";
export type { RequestLike } from "./session/request-tokens.ts";
export type { TokenPartialUser, GetPartialUserOptions, ConvexCtx } from "./apps/partial-user.ts";
export { Result } from "./result.ts";
export { ConnectionError, HttpError, KnownErrorMismatchError } from "./errors.ts";
export {
  resolveHandlerUrls,
  handlerPageOf,
  HANDLER_PAGES,
  type HandlerUrls,
  type HandlerUrlOptions,
  type HandlerPage,
} from "./urls/handler-urls.ts";
export {
  clearImpersonationMark,
  impersonationLink,
  impersonationMarkOf,
  impersonationTokensOf,
  isImpersonationSession,
  markImpersonation,
  type ImpersonationTokens,
} from "./urls/impersonation.ts";
export { UntrustedRedirectError, type RedirectMethod } from "./urls/redirect.ts";
/** Webhook deliveries, checked on an app's server. */
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from "./webhooks.ts";
export {
  TEST_WEBHOOK_MESSAGE,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
} from "@latchkey/shared/api/index";
export { KnownError, KnownErrors, RateLimitedError, StatusError, isKnownError } from "@latchkey/shared/known-errors/index";
export type { AnyKnownError, CodedKnownError, KnownErrorCode, KnownErrorOf } from "@latchkey/shared/known-errors/index";
export { SDK_VERSION } from "./version.ts";
