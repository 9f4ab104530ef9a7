/**
 * A user write as the domain takes it: the wire body of @latchkey/shared's
 * `serverUserPatchBody`, keys in camelCase, with any password hashed. The
 * body's schema is the only list of fields; this maps it by rule.
 */
import { camelCaseKeys, StatusError, type CamelCaseKeys, type ServerUserPatch } from "@latchkey/shared";
import { sealTotpSecret } from "../auth/mfa/totp.ts";
import { passwordHashFromBody } from "../auth/password/password-fields.ts";

/** A patch's fields, or a create's: only a create may make a user anonymous. */
type UserWrite = Partial<Omit<ServerUserPatch, "is_anonymous">> & { is_anonymous?: boolean | undefined };

export type UserPatch = CamelCaseKeys<Omit<UserWrite, "password" | "password_hash" | "totp_secret_base64">> & {
  /** Already hashed. null removes the password. */
  passwordHash?: string | null;
  /** Encrypted (domain/auth/mfa/totp.ts). null turns two-factor off. */
  totpSecretSealed?: string | null;
  /** Set by sign-up, never by a request: the bot challenge's verdict (domain/bot-challenge/risk-score.ts). */
  signUpBotRiskScore?: number;
};

/** The refusal of `primary_email_verified` or `primary_email_auth_enabled` true on a user left without a primary e-mail. */
export function primaryEmailNeeded(field: "primary_email_verified" | "primary_email_auth_enabled"): StatusError {
  return new StatusError(400, `${field} cannot be true for a user without a primary e-mail: set primary_email as well.`);
}

export const PASSKEY_AUTH_CANNOT_BE_ENABLED = "Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method";

/**
 * Validates and hashes a password (or an imported hash) if the body has one: the slow part, so done outside transactions.
 * A TOTP secret is encrypted with the server secret.
 */
export async function userPatchFromBody(body: UserWrite, serverSecret: string): Promise<UserPatch> {
  const { password, password_hash, totp_secret_base64: totpSecret, ...fields } = body;
  // Derived from the user's passkeys: only turning it off (removing them all) is a request one can make.
  if (fields.passkey_auth_enabled === true) throw new StatusError(400, PASSKEY_AUTH_CANNOT_BE_ENABLED);
  const patch: UserPatch = camelCaseKeys(fields);
  if (totpSecret !== undefined) patch.totpSecretSealed = totpSecret === null ? null : sealTotpSecret(serverSecret, totpSecret);
  const passwordHash = await passwordHashFromBody({ password, password_hash });
  if (passwordHash !== undefined) patch.passwordHash = passwordHash;
  return patch;
}
