/**
 * One of a user's passkeys: its name, when it was added and last used, and
 * whether it is synced. Its methods act through the API for the user it
 * belongs to (`me` on a client, the user's id on a server).
 */
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { PasskeyJson } from "./json.ts";

export interface PasskeyContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** `me` for the signed-in user, else the user's id. */
  userIdOrMe: string;
  /** The user's passkeys (and so maybe `passkeyAuthEnabled`) changed. */
  changed(): void;
}

export class Passkey {
  readonly id: string;
  readonly userId: string;
  readonly displayName: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  /** "singleDevice" (kept by one authenticator) or "multiDevice" (synced, e.g. by a password manager). */
  readonly deviceType: string;
  readonly backedUp: boolean;

  constructor(
    json: PasskeyJson,
    private readonly context: PasskeyContext,
  ) {
    this.id = json.id;
    this.userId = json.user_id;
    this.displayName = json.display_name;
    this.createdAt = new Date(json.created_at_millis);
    this.lastUsedAt = json.last_used_at_millis === null ? null : new Date(json.last_used_at_millis);
    this.deviceType = json.device_type;
    this.backedUp = json.backed_up;
  }

  async update(options: { displayName: string }): Promise<void> {
    await this.context.api.call("PATCH /passkeys/:user_id/:passkey_id", {
      ...callerOf(this.context),
      params: this.params,
      body: { display_name: options.displayName },
    });
    this.context.changed();
  }

  /** Removes the passkey: it no longer signs the user in. */
  async delete(): Promise<void> {
    await this.context.api.call("DELETE /passkeys/:user_id/:passkey_id", { ...callerOf(this.context), params: this.params });
    this.context.changed();
  }

  private get params() {
    return { user_id: this.context.userIdOrMe, passkey_id: this.id };
  }
}

function callerOf({ accessType, session }: PasskeyContext) {
  return { accessType, session };
}

/** Oldest first. */
export async function listPasskeys(context: PasskeyContext): Promise<Passkey[]> {
  const body = await context.api.call("GET /passkeys", { ...callerOf(context), query: { user_id: context.userIdOrMe } });
  return body.items.map((json) => new Passkey(json, context));
}
