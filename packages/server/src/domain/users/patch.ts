/**
 * A user write as the domain takes it: the wire body of @latchkey/shared's
 * `serverUserPatchBody`, keys in camelCase, with any password hashed. The
 * body's schema is the only list of fields; this maps it by rule.
 */
import { camelCaseKeys, type CamelCaseKeys, type ServerUserPatch } from "@latchkey/shared";
import { passwordHashFromBody } from "../auth/password/password-fields.ts";

export type UserPatch = CamelCaseKeys<Omit<ServerUserPatch, "password" | "password_hash">> & {
  /** Already hashed. null removes the password. */
  passwordHash?: string | null;
  /** Set by sign-up, never by a request: the bot challenge's verdict (domain/bot-challenge/risk-score.ts). */
  signUpBotRiskScore?: number;
};

/** Validates and hashes a password (or an imported hash) if the body has one: the slow part, so done outside transactions. */
export async function userPatchFromBody(body: Partial<ServerUserPatch>): Promise<UserPatch> {
  const { password, password_hash, ...fields } = body;
  const patch: UserPatch = camelCaseKeys(fields);
  const passwordHash = await passwordHashFromBody({ password, password_hash });
  if (passwordHash !== undefined) patch.passwordHash = passwordHash;
  return patch;
}
