/**
 * The signed-in user as a server (or admin) app reads them: the server's view
 * (server metadata, last activity, ...) with the signed-in user's methods,
 * which go through /users/me with the app's server access.
 */
import { CurrentUser } from "./current-user.ts";
import type { ServerItem } from "./item.ts";
import type { CheckoutUrlOptions, GrantProductOptions } from "./product.ts";
import type { ClientUserJson, Json, ServerUserJson } from "./json.ts";
import { clientViewOf, serverOnlyUserFields, type ServerOnlyUserFields } from "./server-user-fields.ts";
import { createUserSession, type CreateSessionOptions, type CreatedSession } from "./server-user-sessions.ts";
import type { ServerTeam, ServerTeamCreateOptions } from "./team.ts";
import type { ServerUserUpdateOptions, UserContext } from "./user-fields.ts";
import type { TeamRef } from "./user-teams.ts";

// The fields are assigned from `serverOnlyUserFields` in the constructor, so
// the merged declaration is safe; it keeps the field list in one place.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface CurrentServerUser extends ServerOnlyUserFields {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class CurrentServerUser extends CurrentUser {
  declare readonly selectedTeam: ServerTeam | null;
  readonly #json: ServerUserJson;

  constructor(json: ServerUserJson, context: UserContext) {
    super(json, context);
    Object.assign(this, serverOnlyUserFields(json));
    this.#json = json;
  }

  /** The user as the server sent it (snake_case), server fields included. */
  toServerJson(): ServerUserJson {
    return this.#json;
  }

  /** The user as a client app reads them: without the server-only fields. */
  override toClientJson(): ClientUserJson {
    return clientViewOf(this.#json);
  }

  /** Server access may also set the server-only fields. */
  override update(update: ServerUserUpdateOptions): Promise<void> {
    return super.update(update);
  }

  setServerMetadata(serverMetadata: Json): Promise<void> {
    return this.update({ serverMetadata });
  }

  setClientReadOnlyMetadata(clientReadOnlyMetadata: Json): Promise<void> {
    return this.update({ clientReadOnlyMetadata });
  }

  setPrimaryEmail(email: string | null, options: { verified?: boolean } = {}): Promise<void> {
    return this.update({ primaryEmail: email, ...(options.verified !== undefined ? { primaryEmailVerified: options.verified } : {}) });
  }

  override createTeam(options: Omit<ServerTeamCreateOptions, "creatorUserId">): Promise<ServerTeam> {
    return super.createTeam(options) as Promise<ServerTeam>;
  }

  override listTeams(): Promise<ServerTeam[]> {
    return super.listTeams() as Promise<ServerTeam[]>;
  }

  override getTeam(teamId: string): Promise<ServerTeam | null> {
    return super.getTeam(teamId) as Promise<ServerTeam | null>;
  }

  /** Grants a team permission (the user must be a member), or with only an id a project permission. */
  grantPermission(team: TeamRef, permissionId: string): Promise<void>;
  grantPermission(permissionId: string): Promise<void>;
  grantPermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.grantPermission(scope, permissionId);
  }

  /** Revokes a permission granted directly (one held only through another stays). */
  revokePermission(team: TeamRef, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
  revokePermission(scope: TeamRef | string, permissionId?: string): Promise<void> {
    return this.teams.revokePermission(scope, permissionId);
  }

  /** This user's item, with the methods that change its quantity. */
  override getItem(itemId: string): Promise<ServerItem> {
    return super.getItem(itemId) as Promise<ServerItem>;
  }

  /** The URL of the purchase page where this user buys a configured product, or one described inline. */
  override createCheckoutUrl(options: CheckoutUrlOptions): Promise<string> {
    return this.payments().createCheckoutUrl(options);
  }

  /** Gives this user a product without payment. */
  grantProduct(options: GrantProductOptions): Promise<void> {
    return this.payments().grantProduct(options);
  }

  /** A new session for this user, beside the current one. */
  createSession(options: CreateSessionOptions = {}): Promise<CreatedSession> {
    return createUserSession(this.context, this.id, options);
  }
}
