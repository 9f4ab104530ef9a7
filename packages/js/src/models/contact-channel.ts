/**
 * A user's contact channel (an e-mail address): whether it is verified,
 * primary, and used to sign in. Its methods act through the API for the
 * user it belongs to (`me` on a client, the user's id on a server).
 */
import type {
  ClientContactChannelCreateBody,
  ClientContactChannelPatchBody,
  ServerContactChannelCreateBody,
  ServerContactChannelPatchBody,
} from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ContactChannelJson } from "./json.ts";

export interface ContactChannelContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** `me` for the signed-in user, else the user's id. */
  userIdOrMe: string;
  /** The verification link's target; throws when none is given and none can be derived. */
  callbackUrl(given: string | undefined): string;
  userChanged(): void;
}

/** What a client may set on a new channel of its user (the wire body less `user_id`, in camelCase). */
export type ContactChannelCreateOptions = CamelCaseKeys<Omit<ClientContactChannelCreateBody, "user_id">>;
export type ContactChannelUpdateOptions = CamelCaseKeys<ClientContactChannelPatchBody>;
/** A server may also mark an address verified. */
export type ServerContactChannelCreateOptions = CamelCaseKeys<Omit<ServerContactChannelCreateBody, "user_id">>;
export type ServerContactChannelUpdateOptions = CamelCaseKeys<ServerContactChannelPatchBody>;

export class ContactChannel {
  readonly id: string;
  readonly type: "email";
  readonly value: string;
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;

  constructor(
    json: ContactChannelJson,
    private readonly context: ContactChannelContext,
  ) {
    this.id = json.id;
    this.type = json.type;
    this.value = json.value;
    this.isPrimary = json.is_primary;
    this.isVerified = json.is_verified;
    this.usedForAuth = json.used_for_auth;
  }

  /** Mails a verification link to this address. */
  async sendVerificationEmail(options: { callbackUrl?: string } = {}): Promise<void> {
    await this.context.api.call("POST /contact-channels/:user_id/:contact_channel_id/send-verification-code", {
      ...callerOf(this.context),
      params: this.params,
      body: { callback_url: this.context.callbackUrl(options.callbackUrl) },
    });
  }

  async update(options: ServerContactChannelUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /contact-channels/:user_id/:contact_channel_id", {
      ...callerOf(this.context),
      params: this.params,
      body: snakeCaseKeys(options),
    });
    this.context.userChanged();
  }

  async delete(): Promise<void> {
    await this.context.api.call("DELETE /contact-channels/:user_id/:contact_channel_id", {
      ...callerOf(this.context),
      params: this.params,
    });
    this.context.userChanged();
  }

  private get params() {
    return { user_id: this.context.userIdOrMe, contact_channel_id: this.id };
  }
}

/** Who calls: the app's access, with the signed-in user's session on a client. */
function callerOf({ accessType, session }: ContactChannelContext) {
  return { accessType, session };
}

/** Lists and creates the channels of one user. */
export async function listContactChannels(context: ContactChannelContext): Promise<ContactChannel[]> {
  const body = await context.api.call("GET /contact-channels", { ...callerOf(context), query: { user_id: context.userIdOrMe } });
  return body.items.map((json) => new ContactChannel(json, context));
}

export async function createContactChannel(
  context: ContactChannelContext,
  options: ServerContactChannelCreateOptions,
): Promise<ContactChannel> {
  const json = await context.api.call("POST /contact-channels", {
    ...callerOf(context),
    body: { user_id: context.userIdOrMe, ...snakeCaseKeys(options) },
  });
  context.userChanged();
  return new ContactChannel(json, context);
}
