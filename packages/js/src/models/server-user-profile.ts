/**
 * The first layer of `ServerUser` (models/server-user.ts): a user read by id, its
 * server-only fields, and the writes to the user itself (fields, metadata, e-mail,
 * deletion). Each layer above adds one area: teams, contact channels, connected
 * accounts, sessions, then the password, passkeys and API keys.
 */
import type { CacheEntry } from "../cache/entry.ts";
import type { Item, ServerItem } from "./item.ts";
import type {
  CheckoutUrlOptions,
  CustomerPayments,
  CustomerProductsList,
  CustomerProductsListOptions,
  GrantProductOptions,
  SwitchSubscriptionOptions,
} from "./product.ts";
import type { ClientUserJson, Json, ServerUserJson } from "./json.ts";
import type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./billing.ts";
import { clientViewOf, serverOnlyUserFields, type ServerOnlyUserFields } from "./server-user-fields.ts";
import type { ServerTeam } from "./team.ts";
import { userUpdateToJson, type ServerUserUpdateOptions, type UserContext } from "./user-fields.ts";
import { UserWithTeams } from "./user-with-teams.ts";

/** What a user read by a server app needs from the app. */
export type ServerUserContext = Pick<
  UserContext,
  "api" | "accessType" | "userChanged" | "teams" | "emailVerificationUrl" | "items" | "products"
>;

// The fields are assigned from `serverOnlyUserFields` in the constructor, so
// the merged declaration is safe; it keeps the field list in one place.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ServerUserProfile extends ServerOnlyUserFields {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export abstract class ServerUserProfile extends UserWithTeams {
  declare readonly selectedTeam: ServerTeam | null;
  readonly #json: ServerUserJson;

  constructor(
    json: ServerUserJson,
    protected readonly context: ServerUserContext,
  ) {
    super(json, context.teams, null);
    Object.assign(this, serverOnlyUserFields(json));
    this.#json = json;
  }

  toServerJson(): ServerUserJson {
    return this.#json;
  }

  /** The user as a client app reads them: without the server-only fields. */
  toClientJson(): ClientUserJson {
    return clientViewOf(this.#json);
  }

  async update(update: ServerUserUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /users/:user_id", {
      accessType: this.context.accessType,
      params: { user_id: this.id },
      body: userUpdateToJson(update),
    });
    this.context.userChanged();
  }

  setDisplayName(displayName: string | null): Promise<void> {
    return this.update({ displayName });
  }

  setServerMetadata(serverMetadata: Json): Promise<void> {
    return this.update({ serverMetadata });
  }

  setClientReadOnlyMetadata(clientReadOnlyMetadata: Json): Promise<void> {
    return this.update({ clientReadOnlyMetadata });
  }

  setClientMetadata(clientMetadata: Json): Promise<void> {
    return this.update({ clientMetadata });
  }

  setPrimaryEmail(email: string | null, options: { verified?: boolean } = {}): Promise<void> {
    return this.update({ primaryEmail: email, ...(options.verified !== undefined ? { primaryEmailVerified: options.verified } : {}) });
  }

  /** This user's item (`payments.items.<id>`, for users), with the methods that change its quantity. */
  getItem(itemId: string): Promise<ServerItem> {
    // Read with server access: the object has the quantity methods.
    return this._itemEntry(itemId).get() as Promise<ServerItem>;
  }

  /** The cache entry behind `getItem`, for hooks (`useItem(user, itemId)` of @latchkey/react). */
  _itemEntry(itemId: string): CacheEntry<Item> {
    return this.context.items.entry(null, { type: "user", id: this.id }, itemId);
  }

  /** A page of the products this user owns, oldest first. */
  listProducts(options: CustomerProductsListOptions = {}): Promise<CustomerProductsList> {
    return this._productsEntry(options).get();
  }

  /** The cache entry behind `listProducts`, for hooks (`useProducts(user)` of @latchkey/react). */
  _productsEntry(options: CustomerProductsListOptions = {}): CacheEntry<CustomerProductsList> {
    return this.payments().productsEntry(options);
  }

  /** The URL of the purchase page where this user buys a configured product, or one described inline. */
  createCheckoutUrl(options: CheckoutUrlOptions): Promise<string> {
    return this.payments().createCheckoutUrl(options);
  }

  /** Gives this user a product without payment. */
  grantProduct(options: GrantProductOptions): Promise<void> {
    return this.payments().grantProduct(options);
  }

  /** Moves this user's subscription to another product of its product line, charged to their saved card. */
  switchSubscription(options: SwitchSubscriptionOptions): Promise<void> {
    return this.payments().switchSubscription(options);
  }

  // -------------------------------------------------------------------------
  // Billing

  /** Whether Stripe knows this user, and the card this user's subscriptions are charged to. */
  getBilling(): Promise<CustomerBilling> {
    return this._billingEntry().get();
  }

  /** The cache entry behind `getBilling`, for hooks. */
  _billingEntry(): CacheEntry<CustomerBilling> {
    return this.payments().billingEntry();
  }

  /** A page of the invoices of this user's subscriptions, newest first. */
  listInvoices(options: CustomerInvoicesListOptions = {}): Promise<CustomerInvoicesList> {
    return this._invoicesEntry(options).get();
  }

  /** The cache entry behind `listInvoices`, for hooks. */
  _invoicesEntry(options: CustomerInvoicesListOptions = {}): CacheEntry<CustomerInvoicesList> {
    return this.payments().invoicesEntry(options);
  }

  /** A Stripe SetupIntent that saves a card for this user: confirm it with Stripe's card form, on `stripeAccountId`. */
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent> {
    return this.payments().createPaymentMethodSetupIntent();
  }

  /** Makes the card a succeeded SetupIntent saved this user's default; answers the default card after. */
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null> {
    return this.payments().setDefaultPaymentMethodFromSetupIntent(setupIntentId);
  }

  private payments(): CustomerPayments {
    return this.context.products.of(null, { type: "user", id: this.id });
  }

  async delete(): Promise<void> {
    await this.context.api.call("DELETE /users/:user_id", { accessType: this.context.accessType, params: { user_id: this.id } });
    this.context.userChanged();
  }
}
