/**
 * A user's accounts at OAuth providers (`/oauth-providers`): whether each
 * signs the user in (`allowSignIn`, one per provider) and whether the app may
 * use its provider tokens (`allowConnectedAccounts`). Its methods act through
 * the API for the user it belongs to (`me` on a client, the id on a server).
 */
import type { ClientOAuthProviderJson, ServerOAuthProviderJson, ServerOAuthProviderPatchBody } from "@latchkey/shared/api/index";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { HttpError } from "../errors.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";

export type OAuthProviderUpdateError = InstanceType<typeof KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn>;

export interface OAuthProviderContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** `me` for the signed-in user, else the user's id. */
  userIdOrMe: string;
  /** The user's accounts (and so `oauthProviders`) changed. */
  changed(): void;
}

export interface OAuthProviderUpdateOptions {
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
}

export interface ServerOAuthProviderUpdateOptions extends OAuthProviderUpdateOptions {
  /** The user's id at the provider. */
  accountId?: string;
  email?: string;
}

export class OAuthProvider {
  /** The account's own id (not the provider's). */
  readonly id: string;
  /** The provider: `github`, `google`, … */
  readonly type: string;
  /** The project's provider entry the account belongs to. */
  readonly providerConfigId: string;
  readonly userId: string;
  readonly email: string | undefined;
  readonly allowSignIn: boolean;
  readonly allowConnectedAccounts: boolean;

  constructor(
    json: ClientOAuthProviderJson,
    protected readonly context: OAuthProviderContext,
  ) {
    this.id = json.id;
    this.type = json.type;
    this.providerConfigId = json.provider_config_id;
    this.userId = json.user_id;
    this.email = json.email;
    this.allowSignIn = json.allow_sign_in;
    this.allowConnectedAccounts = json.allow_connected_accounts;
  }

  /** Refused (as an error Result) when another user already signs in with this provider account. */
  update(options: OAuthProviderUpdateOptions): Promise<Result<undefined, OAuthProviderUpdateError>> {
    return this.patch({ allow_sign_in: options.allowSignIn, allow_connected_accounts: options.allowConnectedAccounts });
  }

  /** Removes the account from the user, with the provider tokens kept for it. */
  async delete(): Promise<void> {
    await this.context.api.call("DELETE /oauth-providers/:user_id/:provider_id", { ...callerOf(this.context), params: this.params });
    this.context.changed();
  }

  protected async patch(body: ServerOAuthProviderPatchBody): Promise<Result<undefined, OAuthProviderUpdateError>> {
    const result = await Result.of<unknown, OAuthProviderUpdateError>([KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn], () =>
      this.context.api.call("PATCH /oauth-providers/:user_id/:provider_id", { ...callerOf(this.context), params: this.params, body }),
    );
    if (result.status === "error") return result;
    this.context.changed();
    return Result.ok(undefined);
  }

  private get params() {
    return { user_id: this.context.userIdOrMe, provider_id: this.id };
  }
}

/** As a server sees it: also the user's id at the provider, and both may be changed. */
export class ServerOAuthProvider extends OAuthProvider {
  readonly accountId: string;

  constructor(json: ServerOAuthProviderJson, context: OAuthProviderContext) {
    super(json, context);
    this.accountId = json.account_id;
  }

  override update(options: ServerOAuthProviderUpdateOptions): Promise<Result<undefined, OAuthProviderUpdateError>> {
    return this.patch({
      allow_sign_in: options.allowSignIn,
      allow_connected_accounts: options.allowConnectedAccounts,
      account_id: options.accountId,
      email: options.email,
    });
  }
}

function callerOf({ accessType, session }: OAuthProviderContext) {
  return { accessType, session };
}

/** Oldest first. */
export async function listOAuthProviders(context: OAuthProviderContext): Promise<OAuthProvider[]> {
  const body = await context.api.call("GET /oauth-providers", { ...callerOf(context), query: { user_id: context.userIdOrMe } });
  return body.items.map((json) => oauthProviderFromJson(json, context));
}

/** The account of this id, or null when the user has none such. */
export async function getOAuthProvider(context: OAuthProviderContext, id: string): Promise<OAuthProvider | null> {
  // Account ids are UUIDs: anything else names no account (and would be refused as malformed).
  if (!UUID.test(id)) return null;
  try {
    const json = await context.api.call("GET /oauth-providers/:user_id/:provider_id", {
      ...callerOf(context),
      params: { user_id: context.userIdOrMe, provider_id: id },
    });
    return oauthProviderFromJson(json, context);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A server's answer carries `account_id`; a client's does not. */
export function oauthProviderFromJson(
  json: ClientOAuthProviderJson | ServerOAuthProviderJson,
  context: OAuthProviderContext,
): OAuthProvider {
  return "account_id" in json ? new ServerOAuthProvider(json, context) : new OAuthProvider(json, context);
}
