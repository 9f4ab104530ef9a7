/**
 * A user's contact channel (an e-mail address): whether it is verified,
 * primary, and used to sign in. Its methods act through the API for the
 * user it belongs to (`me` on a client, the user's id on a server).
 */
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

export interface ContactChannelCreateOptions {
  type: "email";
  value: string;
  usedForAuth: boolean;
  isPrimary?: boolean;
}

export interface ContactChannelUpdateOptions {
  value?: string;
  usedForAuth?: boolean;
  isPrimary?: boolean;
}

export interface ServerContactChannelCreateOptions extends ContactChannelCreateOptions {
  isVerified?: boolean;
}

export interface ServerContactChannelUpdateOptions extends ContactChannelUpdateOptions {
  isVerified?: boolean;
}

const WIRE_NAMES: Record<string, string> = {
  type: "type",
  value: "value",
  usedForAuth: "used_for_auth",
  isPrimary: "is_primary",
  isVerified: "is_verified",
};

export function contactChannelOptionsToJson(options: ServerContactChannelUpdateOptions | ServerContactChannelCreateOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const wire = WIRE_NAMES[key];
    if (!wire) throw new Error(`Unknown contact channel field ${JSON.stringify(key)}.`);
    out[wire] = value;
  }
  return out;
}

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
    await this.send(`${this.path}/send-verification-code`, {
      method: "POST",
      body: { callback_url: this.context.callbackUrl(options.callbackUrl) },
    });
  }

  async update(options: ServerContactChannelUpdateOptions): Promise<void> {
    await this.send(this.path, { method: "PATCH", body: contactChannelOptionsToJson(options) });
    this.context.userChanged();
  }

  async delete(): Promise<void> {
    await this.send(this.path, { method: "DELETE" });
    this.context.userChanged();
  }

  private get path(): string {
    return `/contact-channels/${encodeURIComponent(this.context.userIdOrMe)}/${encodeURIComponent(this.id)}`;
  }

  private send(path: string, options: { method: string; body?: unknown }) {
    const { api, accessType, session } = this.context;
    return api.send(path, { ...options, accessType, ...(session ? { session } : {}) });
  }
}

/** Lists and creates the channels of one user. */
export async function listContactChannels(context: ContactChannelContext): Promise<ContactChannel[]> {
  const { api, accessType, session, userIdOrMe } = context;
  const body = await api.send<{ items: ContactChannelJson[] }>("/contact-channels", {
    accessType,
    query: { user_id: userIdOrMe },
    ...(session ? { session } : {}),
  });
  return body.items.map((json) => new ContactChannel(json, context));
}

export async function createContactChannel(
  context: ContactChannelContext,
  options: ServerContactChannelCreateOptions,
): Promise<ContactChannel> {
  const { api, accessType, session, userIdOrMe } = context;
  const json = await api.send<ContactChannelJson>("/contact-channels", {
    method: "POST",
    accessType,
    body: { user_id: userIdOrMe, ...contactChannelOptionsToJson(options) },
    ...(session ? { session } : {}),
  });
  context.userChanged();
  return new ContactChannel(json, context);
}
