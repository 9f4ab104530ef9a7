/** CLI login in tests: the three calls as a CLI and a browser make them. */
import { expect } from "vitest";
import type { Auth, TestServer } from "./harness.ts";

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
