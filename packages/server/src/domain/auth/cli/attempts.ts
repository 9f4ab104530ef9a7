/**
 * CLI login requests (table cli_auth_attempts): found by the digest of
 * their polling or login code, always within one project and branch, and
 * compared against the clock of the caller (so an expired row is never
 * usable, whether or not it was cleaned up). Refresh tokens kept on a row
 * are sealed with the server secret, each kind under its own purpose.
 */
import { and, eq, gt, isNull, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { cliAuthAttempts } from "../../../db/schema/index.ts";
import { decryptWithSecret, encryptWithSecret, sha256Hex } from "../../../lib/secrets.ts";

export type CliAuthAttemptRow = typeof cliAuthAttempts.$inferSelect;

export interface CliScope {
  projectId: string;
  branchId: string;
}

type SealPurpose = "cli-refresh-token" | "cli-anon-refresh-token";

export function sealToken(serverSecret: string, purpose: SealPurpose, token: string): string {
  return encryptWithSecret(serverSecret, purpose, token);
}

export function openToken(serverSecret: string, purpose: SealPurpose, sealed: string): string {
  return decryptWithSecret(serverSecret, purpose, sealed);
}

/** Codes are issued in lower case; a caller's spelling of one is matched regardless of case. */
export function codeDigest(code: string): string {
  return sha256Hex(code.toLowerCase());
}

function inScope(scope: CliScope): SQL {
  return and(eq(cliAuthAttempts.projectId, scope.projectId), eq(cliAuthAttempts.branchId, scope.branchId))!;
}

export async function findByPollingCode(db: DbOrTx, scope: CliScope, pollingCode: string): Promise<CliAuthAttemptRow | null> {
  const [row] = await db
    .select()
    .from(cliAuthAttempts)
    .where(and(inScope(scope), eq(cliAuthAttempts.pollingCodeHash, codeDigest(pollingCode))))
    .limit(1);
  return row ?? null;
}

/** Still waiting for the browser: not expired, nothing handed over yet, not spent. */
export function isOpen(now: Date): SQL {
  return and(isNull(cliAuthAttempts.refreshTokenSealed), isNull(cliAuthAttempts.usedAt), gt(cliAuthAttempts.expiresAt, now))!;
}

/** The request a login code belongs to, if it is still open (see `isOpen`). */
export async function findOpenByLoginCode(db: DbOrTx, scope: CliScope, loginCode: string, now: Date): Promise<CliAuthAttemptRow | null> {
  const [row] = await db
    .select()
    .from(cliAuthAttempts)
    .where(and(inScope(scope), eq(cliAuthAttempts.loginCodeHash, codeDigest(loginCode)), isOpen(now)))
    .limit(1);
  return row ?? null;
}

/** Applies `changes` to the row only while `condition` holds; whether it did (one winner among concurrent callers). */
export async function updateIf(
  db: DbOrTx,
  id: string,
  condition: SQL,
  changes: Partial<Pick<CliAuthAttemptRow, "refreshTokenSealed" | "anonRefreshTokenSealed" | "completedAt" | "usedAt">>,
): Promise<boolean> {
  const rows = await db
    .update(cliAuthAttempts)
    .set(changes)
    .where(and(eq(cliAuthAttempts.id, id), condition))
    .returning({ id: cliAuthAttempts.id });
  return rows.length > 0;
}

/** Matches a sealed column's value as it was read (null included). */
export function sealedIs(
  column: typeof cliAuthAttempts.refreshTokenSealed | typeof cliAuthAttempts.anonRefreshTokenSealed,
  value: string | null,
): SQL {
  return value === null ? isNull(column) : eq(column, value);
}
