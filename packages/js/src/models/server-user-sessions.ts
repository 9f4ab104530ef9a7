/**
 * The sessions of a user as a server manages them: new ones (to impersonate the
 * user, or to act as them briefly), the active ones, and revoking one. The
 * session layer of `ServerUser` (models/server-user.ts); `createUserSession` also
 * serves the signed-in user of a server app (`CurrentServerUser`).
 */
import type { CreateSessionBody } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import { Session } from "../session/session.ts";
import { ServerUserConnectedAccounts } from "./server-user-connected-accounts.ts";
import { activeSessionFromJson, type ActiveSession } from "./session.ts";
import type { UserContext } from "./user-fields.ts";

/** The session a server acts in as the user (a passkey registration): long enough for the browser's prompt. */
const BRIEF_SESSION_MILLIS = 2 * 60 * 1000;

/** How long a new session lasts, and whether it is an impersonation. */
export type CreateSessionOptions = CamelCaseKeys<Omit<CreateSessionBody, "user_id">>;

export type CreatedSession = { getTokens(): Promise<{ accessToken: string; refreshToken: string }> };

/** A new session for a user (e.g. to impersonate them from an admin tool). */
export async function createUserSession(
  context: Pick<UserContext, "api" | "accessType">,
  userId: string,
  options: CreateSessionOptions,
): Promise<CreatedSession> {
  const body = await context.api.call("POST /auth/sessions", {
    accessType: context.accessType,
    body: { ...snakeCaseKeys(options), user_id: userId },
  });
  const tokens = { accessToken: body.access_token, refreshToken: body.refresh_token };
  return { getTokens: async () => tokens };
}

export abstract class ServerUserSessions extends ServerUserConnectedAccounts {
  async getActiveSessions(): Promise<ActiveSession[]> {
    const body = await this.context.api.call("GET /auth/sessions", { accessType: this.context.accessType, query: { user_id: this.id } });
    return body.items.map(activeSessionFromJson);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.context.api.call("DELETE /auth/sessions/:session_id", {
      accessType: this.context.accessType,
      params: { session_id: sessionId },
      query: { user_id: this.id },
    });
  }

  /** A new session for this user (e.g. to impersonate them from an admin tool). */
  createSession(options: CreateSessionOptions = {}): Promise<CreatedSession> {
    return createUserSession(this.context, this.id, options);
  }

  /** Runs `act` as the user through a session of theirs that ends as soon as it is done. */
  protected async inBriefSession<T>(act: (session: Session) => Promise<T>): Promise<T> {
    const tokens = await (await this.createSession({ expiresInMillis: BRIEF_SESSION_MILLIS })).getTokens();
    try {
      return await act(new Session(async () => null, tokens));
    } finally {
      // Ended at once; should that fail, it ends by itself within minutes.
      await this.context.api
        .call("DELETE /auth/sessions/current", {
          accessType: this.context.accessType,
          headers: { "x-stack-refresh-token": tokens.refreshToken },
        })
        .catch(() => {});
    }
  }
}
