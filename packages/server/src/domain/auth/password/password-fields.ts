/**
 * Server writes may set `password` (hashed here) or import `password_hash`.
 * A server's password has no minimum length, as the reference has none: the
 * minimum guards what users choose themselves (sign-up, change, reset); the
 * schema bounds it to 1-70 characters.
 */
import { StatusError } from "@latchkey/shared";
import { hashPassword, isSupportedPasswordHash } from "./passwords.ts";

export async function passwordHashFromBody(body: {
  password?: string | null | undefined;
  password_hash?: string | undefined;
}): Promise<string | null | undefined> {
  if (body.password !== undefined && body.password_hash !== undefined) {
    throw new StatusError(400, "Give either password or password_hash, not both.");
  }
  if (body.password_hash !== undefined) {
    if (!isSupportedPasswordHash(body.password_hash)) {
      throw new StatusError(400, "password_hash must be an argon2 or bcrypt hash in its standard text form.");
    }
    return body.password_hash;
  }
  if (body.password === null) return null;
  if (body.password === undefined) return undefined;
  return hashPassword(body.password);
}
