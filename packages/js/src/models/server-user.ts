/**
 * Any user of the project, as a server (or admin) app sees and manages them.
 * `ServerUser` is built in layers, one file each, every one adding an area to the
 * one below it:
 *
 * - models/server-user-profile.ts: the user's own fields, updating and deleting them;
 * - models/server-user-teams.ts: their teams and permissions;
 * - models/server-user-contact-channels.ts: e-mail addresses, verification, notification choices;
 * - models/server-user-connected-accounts.ts: their accounts at OAuth providers;
 * - models/server-user-sessions.ts: their sessions;
 * - this file: how they sign in (password, passkeys) and their API keys.
 */
import { registerPasskey, type PasskeyRegistrationError } from "../apps/passkeys.ts";
import type { Result } from "../result.ts";
import { listPasskeys, type Passkey } from "./passkey.ts";
import { updatePasswordInSession, type PasswordUpdateOptions, type PasswordUpdateRefusal } from "./password-update.ts";
import { ServerUserSessions } from "./server-user-sessions.ts";
import {
  createUserApiKey,
  listUserApiKeys,
  type ApiKeyCreationOptions,
  type UserApiKey,
  type UserApiKeyFirstView,
} from "./user-team-api-key.ts";

/** Any user, as a server (or admin) app sees them. */
export class ServerUser extends ServerUserSessions {
  /**
   * Sets the user's password as the server may (no old password, no client minimum); every
   * session of the user ends, so whoever held one signs in again with the new password.
   */
  setPassword(options: { password: string }): Promise<void> {
    return this.update({ password: options.password });
  }

  /**
   * Changes the user's password when `oldPassword` is theirs (unlike setPassword, which needs
   * none): a server checking what its user typed. As a server write of the password, every
   * session of the user ends. Resolves with the refusal, or nothing when changed.
   */
  async updatePassword(options: PasswordUpdateOptions): Promise<PasswordUpdateRefusal | void> {
    const refusal = await this.inBriefSession((session) => updatePasswordInSession(this.context, session, options));
    if (refusal) return refusal;
    this.context.userChanged();
  }

  /**
   * Registers a passkey of this browser for this user (e.g. in an app that
   * holds the server key in the browser, such as an admin tool), through a
   * session of the user that lives for the ceremony only.
   */
  async registerPasskey(options: { hostname?: string } = {}): Promise<Result<undefined, PasskeyRegistrationError>> {
    const result = await this.inBriefSession((session) =>
      registerPasskey({ api: this.context.api, accessType: this.context.accessType, session, hostname: options.hostname }),
    );
    if (result.status === "ok") this.context.userChanged();
    return result;
  }

  /** This user's passkeys, oldest first (each can be removed with `delete()`). */
  listPasskeys(): Promise<Passkey[]> {
    return listPasskeys(this.userResourceContext());
  }

  /** A new API key of this user; its `value` is the whole key, this once. */
  createApiKey(options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView> {
    return createUserApiKey(this.apiKeyContext(), options);
  }

  /** This user's API keys, newest first, revoked and expired ones included. */
  listApiKeys(): Promise<UserApiKey[]> {
    return listUserApiKeys(this.apiKeyContext());
  }

  private apiKeyContext() {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      owner: { type: "user" as const, userIdOrMe: this.id },
      // Nothing of a user read by id is cached by the app.
      changed: () => {},
    };
  }
}
