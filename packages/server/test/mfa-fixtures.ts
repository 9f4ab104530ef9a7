/** Two-factor in tests: a user with a TOTP secret, and the codes their authenticator app would show. */
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import { signUpUser, type EndUser, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";

export interface TotpUser extends EndUser {
  secretBase64: string;
}

/** What an authenticator app shows for this secret at `timestamp`. */
export function totpCode(secretBase64: string, timestamp = Date.now()): string {
  const secret = new Secret({ buffer: new Uint8Array(Buffer.from(secretBase64, "base64")).buffer });
  return new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp });
}

/** A fresh 20-byte secret, base64, as a client makes one when the user turns two-factor on. */
export function newTotpSecret(): string {
  return randomBytes(20).toString("base64");
}

/** Signs a user up and turns two-factor on for them (PATCH /users/me). */
export async function signUpTotpUser(server: TestServer, project: Pick<Project, "client">, email?: string): Promise<TotpUser> {
  const user = await signUpUser(server, project, email);
  const secretBase64 = newTotpSecret();
  const res = await server.request("/users/me", { method: "PATCH", as: user.as, body: { totp_secret_base64: secretBase64 } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.requires_totp_mfa).toBe(true);
  return { ...user, secretBase64 };
}

/** POST /auth/mfa/sign-in. */
export function mfaSignIn(server: TestServer, project: Pick<Project, "client">, code: string, totp: string) {
  return server.request("/auth/mfa/sign-in", { method: "POST", as: project.client, body: { type: "totp", totp, code } });
}

/** A TOTP code that is not the current one (nor either neighbour) for this secret. */
export function wrongTotpCode(secretBase64: string): string {
  const now = Date.now();
  const taken = new Set([-30_000, 0, 30_000].map((d) => totpCode(secretBase64, now + d)));
  for (let i = 0; ; i++) {
    const candidate = String(i).padStart(6, "0");
    if (!taken.has(candidate)) return candidate;
  }
}
