/**
 * StackAdminApp: manages a project — its settings, its internal API keys and
 * its e-mail — with the super secret admin key, or with a project owner's own
 * session.
 */
import type { AccessType } from "../interface/api-client.ts";
import { AdminProject, type AdminProjectContext } from "../models/admin-project.ts";
import { firstViewFromJson, internalApiKeyFromJson, type InternalApiKey, type InternalApiKeyFirstView } from "../models/api-key.ts";
import { CachedQuery, type CacheEntry } from "../cache/index.ts";
import { booleanText } from "../interface/query-values.ts";
import { ProjectConfigCalls, type CompleteConfig } from "../models/project-config.ts";
import { metricsFromJson, type ProjectMetrics } from "../models/metrics.ts";
import type {
  AdminPermissionDefinition,
  AdminProjectPermissionDefinition,
  AdminTeamPermission,
  AdminTeamPermissionDefinition,
  PermissionDefinitionCreateOptions,
  PermissionDefinitionUpdateOptions,
} from "../models/permission.ts";
import type { Session } from "../session/session.ts";
import { itemCustomerOf, updateItemQuantity, type ItemQuantityChangeOptions } from "../models/item.ts";
import { PermissionDefinitions } from "./permission-definitions.ts";
import { AdminAiChat, type ChatContextType } from "./admin-ai-chat.ts";
import {
  AdminEmails,
  type EmailDraftCreateOptions,
  type EmailDraftUpdateOptions,
  type EmailTemplateUpdateOptions,
  type EmailThemeUpdateOptions,
  type SendTestEmailOptions,
} from "./admin-emails.ts";
import { AdminPayments } from "./admin-payments.ts";
import { AdminTransactions, type ListTransactionsOptions, type RefundTransactionOptions } from "./admin-transactions.ts";
import { AdminWebhooks } from "./admin-webhooks.ts";
import { AdminWorkflows, type WorkflowCreateOptions, type WorkflowUpdateOptions } from "./admin-workflows.ts";
import { StackServerApp, userOrderQuery, type ListUsersOptions, type StackServerAppOptions } from "./server-app.ts";

/** What `exportUsers` writes: the users a list's filters select, in its order, as CSV or JSON. */
export type ExportUsersOptions = Omit<ListUsersOptions, "cursor" | "limit"> & { format: "csv" | "json" };

export type StackAdminAppOptions = Omit<StackServerAppOptions, "secretServerKey"> & {
  secretServerKey?: string;
} & ({ superSecretAdminKey: string; projectOwnerSession?: undefined } | { superSecretAdminKey?: undefined; projectOwnerSession: Session });

export interface InternalApiKeyCreateOptions {
  description: string;
  expiresAt: Date;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
}

/** The payments test clock of a project: payments time is the server's time plus `offsetMillis`. */
export interface PaymentsTestClock {
  offsetMillis: number;
  /** The project's payments time when read. */
  now: Date;
  /** Whether the project is in payments test mode (the clock moves only then). */
  testMode: boolean;
}

function paymentsTestClockFromJson(json: { offset_ms: number; now_millis: number; test_mode: boolean }): PaymentsTestClock {
  return { offsetMillis: json.offset_ms, now: new Date(json.now_millis), testMode: json.test_mode };
}

export class StackAdminApp extends StackServerApp {
  protected override readonly accessType: AccessType = "admin";
  readonly #ownerSession: Session | null;
  readonly #emails: AdminEmails;
  readonly #webhooks: AdminWebhooks;
  readonly #payments: AdminPayments;
  readonly #transactions: AdminTransactions;
  readonly #workflows: AdminWorkflows;
  readonly #aiChat: AdminAiChat;
  readonly #definitions: PermissionDefinitions;
  /** The rendered config, read by `project.getConfig()` and the `useConfig` hook, read again after every write of the project. */
  readonly #config = new CachedQuery(this.cache, "config", () => ProjectConfigCalls.fetch(this.api, this.#ownerSession));

  constructor(options: StackAdminAppOptions) {
    if (!options.superSecretAdminKey && !options.projectOwnerSession) {
      throw new Error("StackAdminApp needs a superSecretAdminKey or a projectOwnerSession.");
    }
    super({ ...options, secretServerKey: options.secretServerKey ?? "" });
    this.#ownerSession = options.projectOwnerSession ?? null;
    // Every request of this app — user management included — goes as the owner.
    this.api.defaultAdminSession = this.#ownerSession;
    this.#emails = new AdminEmails(this.adminProjectContext());
    this.#webhooks = new AdminWebhooks(this.adminProjectContext());
    this.#payments = new AdminPayments(this.adminProjectContext());
    this.#transactions = new AdminTransactions(this.adminProjectContext());
    this.#workflows = new AdminWorkflows(this.adminProjectContext());
    this.#aiChat = new AdminAiChat(this.adminProjectContext());
    this.#definitions = new PermissionDefinitions({
      api: this.api,
      cache: this.cache,
      adminSession: this.#ownerSession,
      permissionsChanged: () => this.teams.changed(),
    });
  }

  protected override extraCredentials(): { secretServerKey?: string; superSecretAdminKey?: string } {
    const options = this.options as unknown as StackAdminAppOptions;
    return {
      ...(options.secretServerKey ? { secretServerKey: options.secretServerKey } : {}),
      ...(options.superSecretAdminKey ? { superSecretAdminKey: options.superSecretAdminKey } : {}),
    };
  }

  /** How this app's project objects reach the API. */
  adminProjectContext(): AdminProjectContext {
    return {
      api: this.api,
      adminSession: this.#ownerSession,
      configEntry: () => this.#config.entry(),
      changed: () => this.projectChanged(),
    };
  }

  /** A settings change shows in the project's views and in its rendered config alike. */
  protected override projectChanged(): void {
    super.projectChanged();
    this.#config.invalidate();
  }

  /** The cache entry of the rendered config (`project.getConfig()`), for hooks (`useConfig`). */
  _configEntry(): CacheEntry<CompleteConfig> {
    return this.#config.entry();
  }

  /** Who this app's admin requests go as: the admin key, or the owner's session. */
  private get asAdmin() {
    return { accessType: "admin", adminSession: this.#ownerSession } as const;
  }

  /**
   * The users a list's filters select, as a byte stream of CSV (a header row,
   * then one row per user) or of a JSON array of users, read as the server
   * writes it: an export of any size never sits whole in memory.
   */
  exportUsers(options: ExportUsersOptions): Promise<ReadableStream<Uint8Array>> {
    return this.api.stream("GET /internal/users/export", {
      ...this.asAdmin,
      query: {
        format: options.format,
        order_by: userOrderQuery(options.orderBy),
        desc: booleanText(options.desc),
        query: options.query,
        include_anonymous: booleanText(options.onlyAnonymous || options.includeAnonymous),
        only_anonymous: booleanText(options.onlyAnonymous),
        team_id: options.teamId,
      },
    });
  }

  /** What `useProject` shows of an admin app: the admin view (`getProject` itself always reads anew). */
  protected override fetchProject(): Promise<AdminProject> {
    return this.getProject();
  }

  /** The project with every setting (the admin view), editable. */
  override async getProject(): Promise<AdminProject> {
    return new AdminProject(await this.api.call("GET /internal/projects/current", this.asAdmin), this.adminProjectContext());
  }

  async createInternalApiKey(options: InternalApiKeyCreateOptions): Promise<InternalApiKeyFirstView> {
    const json = await this.api.call("POST /internal/api-keys", {
      ...this.asAdmin,
      body: {
        description: options.description,
        expires_at_millis: options.expiresAt.getTime(),
        has_publishable_client_key: options.hasPublishableClientKey,
        has_secret_server_key: options.hasSecretServerKey,
        has_super_secret_admin_key: options.hasSuperSecretAdminKey,
      },
    });
    return firstViewFromJson(json);
  }

  async listInternalApiKeys(): Promise<InternalApiKey[]> {
    const body = await this.api.call("GET /internal/api-keys", this.asAdmin);
    return body.items.map((json) => internalApiKeyFromJson(json, (id) => this.revokeInternalApiKey(id)));
  }

  private async revokeInternalApiKey(id: string): Promise<void> {
    await this.api.call("PATCH /internal/api-keys/:api_key_id", { ...this.asAdmin, params: { api_key_id: id }, body: { revoked: true } });
  }

  /** The project overview; anonymous users are counted only with `includeAnonymous`. */
  async getMetrics(options: { includeAnonymous?: boolean } = {}): Promise<ProjectMetrics> {
    const json = await this.api.call("GET /internal/metrics", {
      ...this.asAdmin,
      query: { include_anonymous: booleanText(options.includeAnonymous) },
    });
    return metricsFromJson(json, (user) => this.serverUser(user));
  }

  /**
   * Grants (positive `quantity`) or removes (negative) some of a customer's
   * item, with an optional expiry and description. A removal that would take
   * the quantity below zero is refused (ITEM_QUANTITY_INSUFFICIENT_AMOUNT);
   * `serverItem.decreaseQuantity` is the way to go below zero.
   */
  async createItemQuantityChange(options: ItemQuantityChangeOptions): Promise<void> {
    await updateItemQuantity(this.items.context(null), itemCustomerOf(options), options.itemId, {
      delta: options.quantity,
      allowNegative: false,
      expiresAt: options.expiresAt,
      description: options.description,
    });
  }

  /** How far this project's payments time runs ahead of the server's (test mode's clock). */
  async getPaymentsTestClock(): Promise<PaymentsTestClock> {
    return paymentsTestClockFromJson(await this.api.call("GET /internal/payments/test-clock", { accessType: this.accessType }));
  }

  /**
   * Moves this project's payments time forward by `ms` (test mode only):
   * renewals, repeated item grants and the ends of cancelled periods come
   * due early. Every cached product and item read of the app is read again.
   */
  async advancePaymentsTestClock(ms: number): Promise<PaymentsTestClock> {
    const json = await this.api.call("POST /internal/payments/test-clock/advance", { accessType: this.accessType, body: { ms } });
    this.products.allChanged();
    return paymentsTestClockFromJson(json);
  }

  // -------------------------------------------------------------------------
  // Payments: the transactions list and refunds

  listTransactions = (options?: ListTransactionsOptions) => this.#transactions.listTransactions(options);
  refundTransaction = (options: RefundTransactionOptions) => this.#transactions.refundTransaction(options);

  // -------------------------------------------------------------------------
  // E-mail: sent mail, SMTP tests, themes, templates, drafts, previews

  listSentEmails = () => this.#emails.listSentEmails();
  listOutboxEmails = () => this.#emails.listOutboxEmails();
  sendTestEmail = (options: SendTestEmailOptions) => this.#emails.sendTestEmail(options);
  listEmailThemes = () => this.#emails.listEmailThemes();
  getEmailTheme = (id: string) => this.#emails.getEmailTheme(id);
  createEmailTheme = (displayName: string) => this.#emails.createEmailTheme(displayName);
  updateEmailTheme = (id: string, update: EmailThemeUpdateOptions) => this.#emails.updateEmailTheme(id, update);
  deleteEmailTheme = (id: string) => this.#emails.deleteEmailTheme(id);
  sendSignInInvitationEmail = (email: string, callbackUrl: string) => this.#emails.sendSignInInvitationEmail(email, callbackUrl);
  listEmailTemplates = () => this.#emails.listEmailTemplates();
  getEmailTemplate = (id: string) => this.#emails.getEmailTemplate(id);
  createEmailTemplate = (displayName: string) => this.#emails.createEmailTemplate(displayName);
  updateEmailTemplate = (id: string, update: EmailTemplateUpdateOptions) => this.#emails.updateEmailTemplate(id, update);
  deleteEmailTemplate = (id: string) => this.#emails.deleteEmailTemplate(id);
  listEmailDrafts = () => this.#emails.listEmailDrafts();
  getEmailDraft = (id: string) => this.#emails.getEmailDraft(id);
  createEmailDraft = (options: EmailDraftCreateOptions) => this.#emails.createEmailDraft(options);
  updateEmailDraft = (id: string, update: EmailDraftUpdateOptions) => this.#emails.updateEmailDraft(id, update);
  deleteEmailDraft = (id: string) => this.#emails.deleteEmailDraft(id);
  getEmailPreview = (options: Parameters<AdminEmails["getEmailPreview"]>[0]) => this.#emails.getEmailPreview(options);

  // -------------------------------------------------------------------------
  // Webhooks: a test event, and the token of the Svix-compatible management API

  sendTestWebhook = (options: { endpointId: string }) => this.#webhooks.sendTestWebhook(options);
  getSvixToken = () => this.#webhooks.getSvixToken();

  // -------------------------------------------------------------------------
  // Payments setup: the project's Stripe account (Connect onboarding, or its own key)

  setupPayments = () => this.#payments.setupPayments();
  getStripeAccountInfo = () => this.#payments.getStripeAccountInfo();
  createStripeWidgetAccountSession = () => this.#payments.createStripeWidgetAccountSession();
  setStripeOwnKey = (options: { secretKey: string; webhookSecret: string; publishableKey?: string }) =>
    this.#payments.setStripeOwnKey(options);

  // -------------------------------------------------------------------------
  // Workflows (Latchkey's own): TypeScript run on the project's events, and their run log

  listWorkflows = () => this.#workflows.listWorkflows();
  createWorkflow = (options: WorkflowCreateOptions) => this.#workflows.createWorkflow(options);
  updateWorkflow = (id: string, options: WorkflowUpdateOptions) => this.#workflows.updateWorkflow(id, options);
  deleteWorkflow = (id: string) => this.#workflows.deleteWorkflow(id);
  listWorkflowRuns = (id: string) => this.#workflows.listWorkflowRuns(id);

  // -------------------------------------------------------------------------
  // The AI assistant of the e-mail editors: threads of messages, and its replies

  isAiChatEnabled = () => this.#aiChat.isAiChatEnabled();
  sendChatMessage = (threadId: string, contextType: ChatContextType, messages: Parameters<AdminAiChat["sendChatMessage"]>[2]) =>
    this.#aiChat.sendChatMessage(threadId, contextType, messages);
  saveChatMessage = (threadId: string, message: unknown) => this.#aiChat.saveChatMessage(threadId, message);
  listChatMessages = (threadId: string) => this.#aiChat.listChatMessages(threadId);

  // -------------------------------------------------------------------------
  // Permission definitions: team-scoped (listed with the system permissions) and project-scoped

  listTeamPermissionDefinitions = (): Promise<AdminTeamPermissionDefinition[]> => this.#definitions.list("team");
  /** The cache entry behind `listTeamPermissionDefinitions`, for hooks (`useTeamPermissionDefinitions`). */
  _teamPermissionDefinitionsEntry = (): CacheEntry<AdminPermissionDefinition[]> => this.#definitions.entry("team");
  createTeamPermissionDefinition = (options: PermissionDefinitionCreateOptions): Promise<AdminTeamPermission> =>
    this.#definitions.create("team", options);
  /** `id` renames it: its grants and the definitions containing it follow. */
  updateTeamPermissionDefinition = (permissionId: string, options: PermissionDefinitionUpdateOptions): Promise<void> =>
    this.#definitions.update("team", permissionId, options);
  deleteTeamPermissionDefinition = (permissionId: string): Promise<void> => this.#definitions.delete("team", permissionId);

  listProjectPermissionDefinitions = (): Promise<AdminProjectPermissionDefinition[]> => this.#definitions.list("project");
  /** The cache entry behind `listProjectPermissionDefinitions`, for hooks (`useProjectPermissionDefinitions`). */
  _projectPermissionDefinitionsEntry = (): CacheEntry<AdminPermissionDefinition[]> => this.#definitions.entry("project");
  createProjectPermissionDefinition = (options: PermissionDefinitionCreateOptions): Promise<AdminProjectPermissionDefinition> =>
    this.#definitions.create("project", options);
  updateProjectPermissionDefinition = (permissionId: string, options: PermissionDefinitionUpdateOptions): Promise<void> =>
    this.#definitions.update("project", permissionId, options);
  deleteProjectPermissionDefinition = (permissionId: string): Promise<void> => this.#definitions.delete("project", permissionId);
}
