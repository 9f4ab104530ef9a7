/**
 * The API's contract, one module per area: the zod schemas of every
 * endpoint's params, query, body and response, with their JSON types
 * (`z.infer`), and the endpoints themselves (api/endpoint.ts). The server
 * validates and documents with them; the SDK's HTTP layer is typed by
 * `Endpoints`, so a call is type-checked end to end.
 */
import type { EndpointDefinition, EndpointMapOf } from "./endpoint.ts";
import { contactChannelsEndpoints } from "./contact-channels.ts";
import { emailsEndpoints } from "./emails.ts";
import { authEndpoints } from "./auth.ts";
import { metaEndpoints } from "./meta.ts";
import { internalProjectsEndpoints, projectsEndpoints } from "./projects.ts";
import { sessionsEndpoints } from "./sessions.ts";
import { internalApiKeysEndpoints } from "./api-keys.ts";
import { internalEmailsEndpoints } from "./email-admin.ts";
import { usersEndpoints } from "./users.ts";
import { teamsEndpoints } from "./teams.ts";
import { teamMembersEndpoints } from "./team-members.ts";
import { teamInvitationsEndpoints } from "./team-invitations.ts";
import { permissionsEndpoints } from "./permissions.ts";
import { mfaEndpoints } from "./mfa.ts";
import { passkeysEndpoints } from "./passkeys.ts";
import { cliAuthEndpoints } from "./cli-auth.ts";
import { oauthEndpoints } from "./oauth.ts";
import { oauthProvidersEndpoints } from "./oauth-providers.ts";
import { connectedAccountsEndpoints } from "./connected-accounts.ts";
import { internalMetricsEndpoints } from "./metrics.ts";
import { configEndpoints } from "./config.ts";
import { imagesEndpoints } from "./images.ts";
import { aiChatEndpoints } from "./ai-chat.ts";
import { dataVaultEndpoints } from "./data-vault.ts";
import { webhooksEndpoints } from "./webhooks.ts";
import { workflowsEndpoints } from "./workflows.ts";
import { paymentsItemsEndpoints } from "./payments-items.ts";
import { paymentsProductsEndpoints } from "./payments-products.ts";
import { paymentsAdminEndpoints } from "./payments-admin.ts";
import { paymentsAdminTransactionsEndpoints } from "./payments-admin-transactions.ts";
import { paymentsBillingEndpoints } from "./payments-billing.ts";
import { credentialScanningEndpoints, teamApiKeysEndpoints, userApiKeysEndpoints } from "./user-team-api-keys.ts";

export * from "./endpoint.ts";
export * from "./json.ts";
export * from "./teams.ts";
export * from "./team-members.ts";
export * from "./team-invitations.ts";
export * from "./permissions.ts";
export * from "./users.ts";
export * from "./codes.ts";
export * from "./auth.ts";
export * from "./sessions.ts";
export * from "./meta.ts";
export * from "./projects.ts";
export * from "./api-keys.ts";
export * from "./emails.ts";
export * from "./contact-channels.ts";
export * from "./email-admin.ts";
export * from "./mfa.ts";
export * from "./passkeys.ts";
export * from "./cli-auth.ts";
export * from "./oauth.ts";
export * from "./oauth-providers.ts";
export * from "./connected-accounts.ts";
export * from "./metrics.ts";
export * from "./config.ts";
export * from "./images.ts";
export * from "./ai-chat.ts";
export * from "./data-vault.ts";
export * from "./user-team-api-keys.ts";
export * from "./webhooks.ts";
export * from "./workflows.ts";
export * from "./payments-items.ts";
export * from "./payments-products.ts";
export * from "./payments-admin.ts";
export * from "./payments-admin-transactions.ts";
export * from "./payments-billing.ts";

/** Every endpoint of the API, by area. */
export const endpointsByArea = {
  users: usersEndpoints,
  contactChannels: contactChannelsEndpoints,
  emails: emailsEndpoints,
  auth: authEndpoints,
  sessions: sessionsEndpoints,
  meta: metaEndpoints,
  projects: projectsEndpoints,
  internalProjects: internalProjectsEndpoints,
  internalApiKeys: internalApiKeysEndpoints,
  internalEmails: internalEmailsEndpoints,
  teams: teamsEndpoints,
  teamMembers: teamMembersEndpoints,
  teamInvitations: teamInvitationsEndpoints,
  permissions: permissionsEndpoints,
  mfa: mfaEndpoints,
  passkeys: passkeysEndpoints,
  cliAuth: cliAuthEndpoints,
  oauth: oauthEndpoints,
  oauthProviders: oauthProvidersEndpoints,
  connectedAccounts: connectedAccountsEndpoints,
  internalMetrics: internalMetricsEndpoints,
  config: configEndpoints,
  images: imagesEndpoints,
  aiChat: aiChatEndpoints,
  dataVault: dataVaultEndpoints,
  userApiKeys: userApiKeysEndpoints,
  teamApiKeys: teamApiKeysEndpoints,
  credentialScanning: credentialScanningEndpoints,
  webhooks: webhooksEndpoints,
  workflows: workflowsEndpoints,
  paymentsItems: paymentsItemsEndpoints,
  paymentsProducts: paymentsProductsEndpoints,
  paymentsAdmin: paymentsAdminEndpoints,
  paymentsAdminTransactions: paymentsAdminTransactionsEndpoints,
  paymentsBilling: paymentsBillingEndpoints,
} as const;

/** The endpoint map: `Endpoints["GET /users/:user_id"]` is that endpoint's definition. */
export type Endpoints = EndpointMapOf<typeof usersEndpoints> &
  EndpointMapOf<typeof contactChannelsEndpoints> &
  EndpointMapOf<typeof emailsEndpoints> &
  EndpointMapOf<typeof authEndpoints> &
  EndpointMapOf<typeof sessionsEndpoints> &
  EndpointMapOf<typeof metaEndpoints> &
  EndpointMapOf<typeof projectsEndpoints> &
  EndpointMapOf<typeof internalProjectsEndpoints> &
  EndpointMapOf<typeof internalApiKeysEndpoints> &
  EndpointMapOf<typeof internalEmailsEndpoints> &
  EndpointMapOf<typeof teamsEndpoints> &
  EndpointMapOf<typeof teamMembersEndpoints> &
  EndpointMapOf<typeof teamInvitationsEndpoints> &
  EndpointMapOf<typeof permissionsEndpoints> &
  EndpointMapOf<typeof mfaEndpoints> &
  EndpointMapOf<typeof passkeysEndpoints> &
  EndpointMapOf<typeof cliAuthEndpoints> &
  EndpointMapOf<typeof oauthEndpoints> &
  EndpointMapOf<typeof oauthProvidersEndpoints> &
  EndpointMapOf<typeof connectedAccountsEndpoints> &
  EndpointMapOf<typeof internalMetricsEndpoints> &
  EndpointMapOf<typeof configEndpoints> &
  EndpointMapOf<typeof imagesEndpoints> &
  EndpointMapOf<typeof aiChatEndpoints> &
  EndpointMapOf<typeof dataVaultEndpoints> &
  EndpointMapOf<typeof userApiKeysEndpoints> &
  EndpointMapOf<typeof teamApiKeysEndpoints> &
  EndpointMapOf<typeof credentialScanningEndpoints> &
  EndpointMapOf<typeof webhooksEndpoints> &
  EndpointMapOf<typeof workflowsEndpoints> &
  EndpointMapOf<typeof paymentsItemsEndpoints> &
  EndpointMapOf<typeof paymentsProductsEndpoints> &
  EndpointMapOf<typeof paymentsAdminEndpoints> &
  EndpointMapOf<typeof paymentsAdminTransactionsEndpoints> &
  EndpointMapOf<typeof paymentsBillingEndpoints>;

export const allEndpoints: readonly EndpointDefinition[] = Object.values(endpointsByArea).flatMap((area) => Object.values(area));
