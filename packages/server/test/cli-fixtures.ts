/** CLI login in tests: the three calls as a CLI and a browser make them, and looks at the stored request. */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { cliAuthAttempts } from "../src/db/schema/index.ts";
import { codeDigest } from "../src/capabilities/cli-login/domain/attempts.ts";
import { expectPlainError } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";

export interface StartedCli {
  polling_code: string;
  login_code: string;
  expires_at: string;
}

/** POST /auth/cli, expected to succeed. */
export async function startCli(server: TestServer, as: Auth, body: Record<string, unknown> = {}): Promise<StartedCli> {
  const res = await server.request("/auth/cli", { method: "POST", as, body });
  expect(res.status, res.text).toBe(200);
  return res.body as StartedCli;
}

export function pollCli(server: TestServer, as: Auth, pollingCode: string) {
  return server.request("/auth/cli/poll", { method: "POST", as, body: { polling_code: pollingCode } });
}

export function completeCli(server: TestServer, as: Auth, body: Record<string, unknown>) {
  return server.request("/auth/cli/complete", { method: "POST", as, body });
}

/** POST /auth/anonymous/sign-up. */
export async function anonymousUser(
  server: TestServer,
  as: Auth,
): Promise<{ access_token: string; refresh_token: string; user_id: string }> {
  const res = await server.request("/auth/anonymous/sign-up", { method: "POST", as });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** GET /users/me with the access token a refresh token gets; the user's id. */
export async function userIdOfRefreshToken(server: TestServer, as: Auth, refreshToken: string): Promise<string> {
  const refreshed = await server.request("/auth/sessions/current/refresh", {
    method: "POST",
    as,
    headers: { "x-stack-refresh-token": refreshToken },
  });
  expect(refreshed.status, refreshed.text).toBe(200);
  const me = await server.request("/users/me", { as: { ...as, accessToken: refreshed.body.access_token, allowAnonymous: true } });
  expect(me.status, me.text).toBe(200);
  return me.body.id as string;
}

/** A plain-text 400 with exactly this text (every refusal of CLI login). */
export function expectRefusal(res: TestResponse, message: string): void {
  expectPlainError(res, 400);
  expect(res.text).toBe(message);
}

/** Runs `body` with `server`'s clock `millis` ahead (test-clock.ts). */
export function later<T>(server: TestServer, millis: number, body: () => Promise<T>): Promise<T> {
  return server.clock.ahead(millis, body);
}

/** The stored request of a polling code. */
export async function rowOf(server: TestServer, pollingCode: string) {
  const [row] = await server.instance.services.db
    .select()
    .from(cliAuthAttempts)
    .where(eq(cliAuthAttempts.pollingCodeHash, codeDigest(pollingCode)));
  return row!;
}

/** Whether the refresh token still gets an access token (else it must be refused as REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED). */
export async function refreshes(server: TestServer, as: Auth, refreshToken: string): Promise<boolean> {
  const res = await server.request("/auth/sessions/current/refresh", {
    method: "POST",
    as,
    headers: { "x-stack-refresh-token": refreshToken },
  });
  if (res.status === 200) return true;
  expectKnownError(res, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  return false;
}

/** Signs a refresh token's session out (DELETE /auth/sessions/current). */
export async function signOut(server: TestServer, as: Auth, refreshToken: string): Promise<void> {
  const res = await server.request("/auth/sessions/current", {
    method: "DELETE",
    as,
    headers: { "x-stack-refresh-token": refreshToken },
  });
  expect(res.status, res.text).toBe(200);
}
