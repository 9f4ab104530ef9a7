/**
 * Sign-ins whose cost is not a password hash: the password sign-in of users
 * whose stored hash is a deliberately cheap bcrypt (cost 4), which is the
 * password sign-in's non-hash cost, and the TOTP step of a two-factor
 * sign-in. Users are imported over the server API with that hash, so seeding
 * thousands costs seconds, not minutes of argon2id.
 *
 * Each two-factor completion needs its own attempt code and its own user (a
 * user's TOTP time step is accepted once), so that scenario runs a fixed
 * number of requests, each different, rather than for a duration.
 */
import bcrypt from "bcryptjs";
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { PASSWORD, RUN_ID } from "./config.ts";
import { call, type Fixture } from "./setup.ts";

/** Completions measured in the two-factor scenario (one user each). */
export const MFA_SIGN_INS = 2_000;

const CHEAP_HASH = bcrypt.hashSync(PASSWORD, 4);

export interface ImportedUser {
  email: string;
  secretBase64: string | null;
}

/** `count` users who sign in with PASSWORD against a cheap hash, with a TOTP secret each when `withTotp`. */
export async function importUsers(base: string, fx: Fixture, count: number, label: string, withTotp: boolean): Promise<ImportedUser[]> {
  const users: ImportedUser[] = [];
  while (users.length < count) {
    const batch = Array.from({ length: Math.min(64, count - users.length) }, (_, i) => ({
      email: `imported-${RUN_ID}-${label}-${withTotp ? "totp" : "plain"}-${users.length + i}@example.com`,
      secretBase64: withTotp ? randomBytes(20).toString("base64") : null,
    }));
    const created = await Promise.all(
      batch.map((user) =>
        call(base, "/users", {
          method: "POST",
          headers: fx.server,
          body: {
            primary_email: user.email,
            primary_email_auth_enabled: true,
            password_hash: CHEAP_HASH,
            ...(user.secretBase64 ? { totp_secret_base64: user.secretBase64 } : {}),
          },
        }),
      ),
    );
    for (const res of created) if (res.status !== 201) throw new Error(`import user: ${res.status} ${JSON.stringify(res.body)}`);
    users.push(...batch);
  }
  return users;
}

export interface MfaAttempt {
  code: string;
  secretBase64: string;
}

/** The first factor of each two-factor user, 64 at a time: the attempt codes the scenario completes. */
export async function attemptCodes(base: string, fx: Fixture, users: ImportedUser[]): Promise<MfaAttempt[]> {
  const attempts: MfaAttempt[] = [];
  for (let i = 0; i < users.length; i += 64) {
    const answers = await Promise.all(
      users.slice(i, i + 64).map(async (user) => {
        const res = await call(base, "/auth/password/sign-in", {
          method: "POST",
          headers: fx.client,
          body: { email: user.email, password: PASSWORD },
        });
        if (res.knownError !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED")
          throw new Error(`first factor: ${res.status} ${JSON.stringify(res.body)}`);
        return { code: res.body.details.attempt_code as string, secretBase64: user.secretBase64! };
      }),
    );
    attempts.push(...answers);
  }
  return attempts;
}

/** The code an authenticator app shows now, computed when the request is sent (so no step passes in between). */
export function currentTotp(secretBase64: string): string {
  const secret = new Secret({ buffer: new Uint8Array(Buffer.from(secretBase64, "base64")).buffer });
  return new TOTP({ secret, digits: 6, period: 30 }).generate();
}
