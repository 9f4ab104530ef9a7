/**
 * Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes) on
 * libuv's thread pool, so hashing never blocks the event loop.
 */
import { hash, verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { KnownErrors, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@latchkey/shared";

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw new KnownErrors.PasswordTooShort(PASSWORD_MIN_LENGTH);
  if (password.length > PASSWORD_MAX_LENGTH) throw new KnownErrors.PasswordTooLong(PASSWORD_MAX_LENGTH);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A real hash of a random password, verified against when the e-mail is unknown. */
let decoyHash: Promise<string> | null = null;

/**
 * Verifies a password; with `storedHash` null it still does the same work, so
 * "unknown e-mail" and "wrong password" cost the same time.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    decoyHash ??= hash(crypto.randomUUID(), OPTIONS);
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    // Hashes imported from other systems may be bcrypt.
    if (/^\$2[aby]\$/.test(storedHash)) return await bcrypt.compare(password, storedHash);
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** Hashes accepted as `password_hash` on import: argon2 (any variant) or bcrypt. */
export function isSupportedPasswordHash(value: string): boolean {
  return (
    /^\$argon2(id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(value) ||
    /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value)
  );
}
