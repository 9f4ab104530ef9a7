/**
 * A team, as its members (client apps) or a server see it. A team object is
 * a snapshot of the team when it was read; its methods write through the API
 * and tell the app, which reads its cached team lists again.
 */
import type { ClientTeamCreateBody, ClientTeamPatchBody, ServerTeamCreateBody, ServerTeamPatchBody } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { CacheEntry } from "../cache/entry.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { Json, ServerTeamJson, TeamJson } from "./json.ts";
import type { Item, ServerItem } from "./item.ts";
import type {
  CheckoutUrlOptions,
  CustomerPayments,
  CustomerProductsList,
  CustomerProductsListOptions,
  GrantProductOptions,
  SwitchSubscriptionOptions,
} from "./product.ts";
import type { ServerTeamUser, TeamInvitation, TeamUser } from "./team-member.ts";
import type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./billing.ts";
import {
  createTeamApiKey,
  listTeamApiKeys,
  type ApiKeyCreationOptions,
  type TeamApiKey,
  type TeamApiKeyFirstView,
} from "./user-team-api-key.ts";

export type TeamCreateOptions = CamelCaseKeys<Pick<ClientTeamCreateBody, "display_name" | "profile_image_url">>;
/** A server may also name the creator (`creatorUserId`, who joins with the team-creator permissions) and set every metadata. */
export type ServerTeamCreateOptions = CamelCaseKeys<ServerTeamCreateBody>;
export type TeamUpdateOptions = CamelCaseKeys<ClientTeamPatchBody>;
export type ServerTeamUpdateOptions = CamelCaseKeys<ServerTeamPatchBody>;

/** What a team object needs from the app that read it. */
export interface TeamContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in member's session (client apps), else null. */
  session: Session | null;
  /** The app's cached reads of a team's members and pending invitations. */
  users(teamId: string): CacheEntry<TeamUser[]>;
  invitations(teamId: string): CacheEntry<TeamInvitation[]>;
  /** The app's cached read of a team's item. */
  item(teamId: string, itemId: string): CacheEntry<Item>;
  /** A team's products: reads, checkout URLs, grants. */
  payments(teamId: string): CustomerPayments;
  /** Where an invitation link leads: the given URL, else the app's team-invitation page (absolute). */
  invitationCallbackUrl(given: string | undefined): string;
  /** Tells the app teams changed, so its cached team reads (and signed-in users) are read again. */
  changed(): void;
}

export class Team {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  readonly clientMetadata: Json;
  readonly clientReadOnlyMetadata: Json;

  constructor(
    json: TeamJson,
    protected readonly context: TeamContext,
  ) {
    this.id = json.id;
    this.displayName = json.display_name;
    this.profileImageUrl = json.profile_image_url;
    this.clientMetadata = json.client_metadata;
    this.clientReadOnlyMetadata = json.client_read_only_metadata;
  }

  /** From a client, needs `$update_team`. */
  async update(options: TeamUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /teams/:team_id", { ...this.caller, params: { team_id: this.id }, body: snakeCaseKeys(options) });
    this.context.changed();
  }

  /** Deletes the team with its memberships, invitations and permissions; from a client, needs `$delete_team`. */
  async delete(): Promise<void> {
    await this.context.api.call("DELETE /teams/:team_id", { ...this.caller, params: { team_id: this.id } });
    this.context.changed();
  }

  /** Mails an invitation; the link opens `callbackUrl` (default: the app's team-invitation page). Needs `$invite_members`. */
  async inviteUser(options: { email: string; callbackUrl?: string }): Promise<void> {
    await this.context.api.call("POST /team-invitations/send-code", {
      ...this.caller,
      body: { team_id: this.id, email: options.email, callback_url: this.context.invitationCallbackUrl(options.callbackUrl) },
    });
    this.context.changed();
  }

  /** The members with their profiles in this team; from a client, needs `$read_members`. */
  listUsers(): Promise<TeamUser[]> {
    return this.context.users(this.id).get();
  }

  /** The cache entry behind `listUsers`, for hooks (`useTeamUsers` of @latchkey/react). */
  _usersEntry(): CacheEntry<TeamUser[]> {
    return this.context.users(this.id);
  }

  /** Invitations not yet accepted nor expired; from a client, needs `$read_members` and `$invite_members`. */
  listInvitations(): Promise<TeamInvitation[]> {
    return this.context.invitations(this.id).get();
  }

  /** The cache entry behind `listInvitations`, for hooks (`useTeamInvitations` of @latchkey/react). */
  _invitationsEntry(): CacheEntry<TeamInvitation[]> {
    return this.context.invitations(this.id);
  }

  /** Ends a member's membership; from a client, needs `$remove_members` (leaving is `user.leaveTeam`). */
  async removeUser(userId: string): Promise<void> {
    await this.context.api.call("DELETE /team-memberships/:team_id/:user_id", {
      ...this.caller,
      params: { team_id: this.id, user_id: userId },
    });
    this.context.changed();
  }

  /** A new API key of this team; its `value` is the whole key, this once. From a client, needs `$manage_api_keys`. */
  createApiKey(options: ApiKeyCreationOptions): Promise<TeamApiKeyFirstView> {
    return createTeamApiKey(this.apiKeyContext(), options);
  }

  /** This team's API keys, newest first, revoked and expired ones included. From a client, needs `$manage_api_keys`. */
  listApiKeys(): Promise<TeamApiKey[]> {
    return listTeamApiKeys(this.apiKeyContext());
  }

  /** This team's quantity of an item (`payments.items.<id>`, for teams); from a client, needs `team_admin`. */
  getItem(itemId: string): Promise<Item> {
    return this.context.item(this.id, itemId).get();
  }

  /** The cache entry behind `getItem`, for hooks (`useItem(team, itemId)` of @latchkey/react). */
  _itemEntry(itemId: string): CacheEntry<Item> {
    return this.context.item(this.id, itemId);
  }

  /** A page of the products this team owns, oldest first; from a client, needs `team_admin`. */
  listProducts(options: CustomerProductsListOptions = {}): Promise<CustomerProductsList> {
    return this._productsEntry(options).get();
  }

  /** The cache entry behind `listProducts`, for hooks (`useProducts(team)` of @latchkey/react). */
  _productsEntry(options: CustomerProductsListOptions = {}): CacheEntry<CustomerProductsList> {
    return this.context.payments(this.id).productsEntry(options);
  }

  /** The URL of the purchase page where this team buys a product (valid 24 hours, once); from a client, needs `team_admin`. */
  createCheckoutUrl(options: { productId: string; returnUrl?: string }): Promise<string> {
    return this.context.payments(this.id).createCheckoutUrl(options);
  }

  /** Moves this team's subscription to another product of its product line, charged to its saved card; from a client, needs `team_admin`. */
  switchSubscription(options: SwitchSubscriptionOptions): Promise<void> {
    return this.context.payments(this.id).switchSubscription(options);
  }

  // -------------------------------------------------------------------------
  // Billing

  /** Whether Stripe knows this team, and the card this team's subscriptions are charged to; from a client, needs `team_admin`. */
  getBilling(): Promise<CustomerBilling> {
    return this._billingEntry().get();
  }

  /** The cache entry behind `getBilling`, for hooks. */
  _billingEntry(): CacheEntry<CustomerBilling> {
    return this.context.payments(this.id).billingEntry();
  }

  /** A page of the invoices of this team's subscriptions, newest first; from a client, needs `team_admin`. */
  listInvoices(options: CustomerInvoicesListOptions = {}): Promise<CustomerInvoicesList> {
    return this._invoicesEntry(options).get();
  }

  /** The cache entry behind `listInvoices`, for hooks. */
  _invoicesEntry(options: CustomerInvoicesListOptions = {}): CacheEntry<CustomerInvoicesList> {
    return this.context.payments(this.id).invoicesEntry(options);
  }

  /** A Stripe SetupIntent that saves a card for this team: confirm it with Stripe's card form, on `stripeAccountId`; from a client, needs `team_admin`. */
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent> {
    return this.context.payments(this.id).createPaymentMethodSetupIntent();
  }

  /** Makes the card a succeeded SetupIntent saved this team's default; answers the default card after; from a client, needs `team_admin`. */
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null> {
    return this.context.payments(this.id).setDefaultPaymentMethodFromSetupIntent(setupIntentId);
  }

  private apiKeyContext() {
    return { ...this.caller, api: this.context.api, owner: { type: "team" as const, teamId: this.id }, changed: () => {} };
  }

  protected get caller() {
    return { accessType: this.context.accessType, session: this.context.session };
  }
}

export class ServerTeam extends Team {
  readonly createdAt: Date;
  readonly serverMetadata: Json;
  /** `context.users` reads members as server users (ServerTeamUser). */
  constructor(json: ServerTeamJson, context: TeamContext) {
    super(json, context);
    this.createdAt = new Date(json.created_at_millis);
    this.serverMetadata = json.server_metadata;
  }

  override update(options: ServerTeamUpdateOptions): Promise<void> {
    return super.update(options);
  }

  /** The members as server users, with their profile in this team. */
  override listUsers(): Promise<ServerTeamUser[]> {
    return super.listUsers() as Promise<ServerTeamUser[]>;
  }

  /** This team's item, with the methods that change its quantity. */
  override getItem(itemId: string): Promise<ServerItem> {
    return super.getItem(itemId) as Promise<ServerItem>;
  }

  /** The URL of the purchase page where this team buys a configured product, or one described inline. */
  override createCheckoutUrl(options: CheckoutUrlOptions): Promise<string> {
    return this.context.payments(this.id).createCheckoutUrl(options);
  }

  /** Gives this team a product without payment. */
  grantProduct(options: GrantProductOptions): Promise<void> {
    return this.context.payments(this.id).grantProduct(options);
  }

  /** Adds a user as a member, with the team-member default permissions. */
  async addUser(userId: string): Promise<void> {
    await this.context.api.call("POST /team-memberships/:team_id/:user_id", {
      ...this.caller,
      params: { team_id: this.id, user_id: userId },
      body: {},
    });
    this.context.changed();
  }
}
