/**
 * One-time codes, one mechanism for every flow that mails or hands out a
 * code. A code is 45 random Crockford base32 characters, stored
 * only as digests, valid until it expires, usable once.
 *
 * Brute force: every submission counts an attempt against each code sharing
 * the submitted code's last 39 characters (its nonce). A sign-in code the
 * user types is 6 shown characters plus a 39-character nonce the client
 * keeps, so guesses of the 6 all land on the real code's count, and past 20
 * the code is refused. The count is committed even when the submission fails.
 */
import { KnownErrors, OTP_DISPLAYED_LENGTH, VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_MAX_ATTEMPTS } from "@latchkey/shared";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/connect.ts";
import type { EventTx, Events } from "../../events/transaction.ts";
import { verificationCodes } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import { randomCode, sha256Hex } from "../../lib/secrets.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

/** The flows that use codes; a code only works for the flow that made it. */
export type CodePurpose =
  | "contact_channel_verification"
  | "otp_sign_in"
  | "password_reset"
  | "team_invitation"
  | "mfa_attempt"
  | "passkey_registration"
  | "passkey_authentication"
  | "oauth_authorization_code";

/** The codes of one flow in one tenancy. */
export type CodeScope = Tenancy & { purpose: CodePurpose };

/** A fresh code, for callers that need it before storing it (e.g. to render the mail that carries it). */
export function newCode(): string {
  return randomCode(VERIFICATION_CODE_LENGTH);
}

/** Where codes are kept, and the clock that says whether one has expired. */
export interface CodeStore {
  db: Db;
  clock: Clock;
}

/** `expiresAt`: from the clock's time (lib/clock.ts), e.g. `new Date(services.clock.now() + lifetime)`. */
export async function createCode(
  db: DbOrTx,
  scope: CodeScope,
  data: Record<string, unknown>,
  expiresAt: Date,
  code = newCode(),
): Promise<{ id: string; code: string; expiresAt: Date }> {
  const [row] = await db
    .insert(verificationCodes)
    .values({
      ...scope,
      codeHash: sha256Hex(code),
      nonceHash: sha256Hex(nonceOf(code)),
      data,
      expiresAt,
    })
    .returning({ id: verificationCodes.id });
  return { id: row!.id, code, expiresAt };
}

/** What a user is shown of a sign-in code (upper-cased), and the nonce the client keeps. */
export function splitSignInCode(code: string): { otp: string; nonce: string } {
  return { otp: code.slice(0, OTP_DISPLAYED_LENGTH).toUpperCase(), nonce: nonceOf(code) };
}

/**
 * Uses the code: marks it used and runs `apply` with its data in the same
 * transaction, so the code is spent exactly when its effect happens (if
 * `apply` throws, neither is kept). Throws the catalogue's error in the order
 * not found → expired → used → too many attempts. Concurrent uses of one
 * code: exactly one succeeds.
 */
export function useCode<T = Record<string, unknown>, R = T>(
  services: CodeStore & { events: Events },
  scope: CodeScope,
  code: string,
  apply?: (tx: EventTx, data: T) => Promise<R>,
  refuse?: Refusal<T>,
): Promise<R> {
  const run = <O>(fn: (tx: EventTx) => Promise<O>) => services.events.transaction(services.db, fn);
  return submit<T, R, EventTx>(run, services.clock, scope, code, apply ?? (async (_tx, data) => data as unknown as R), refuse ?? null);
}

/**
 * A check of what comes with the code (a second factor, say) made after the
 * code itself passed: an error leaves the code unused and keeps the attempt
 * counted, so guesses at that part spend the code's attempts too.
 */
export type Refusal<T> = (tx: Tx, data: T) => Promise<Error | null>;

/** The same checks as useCode, without using the code (e.g. "is this reset link still good?"). */
export function checkCode<T = Record<string, unknown>>(store: CodeStore, scope: CodeScope, code: string): Promise<T> {
  return submit<T, T>((fn) => store.db.transaction(fn), store.clock, scope, code, null, null);
}

type Outcome<R> = { data: R } | { error: Error };

/** `transaction`: where the work runs; an EventTx only when there is `apply`, whose events it records. */
async function submit<T, R, X extends Tx = Tx>(
  transaction: <O>(fn: (tx: X) => Promise<O>) => Promise<O>,
  clock: Clock,
  scope: CodeScope,
  submitted: string,
  apply: ((tx: X, data: T) => Promise<R>) | null,
  refuse: Refusal<T> | null,
): Promise<R> {
  const code = submitted.toLowerCase();
  // Decided inside the transaction, thrown after it commits, so that the
  // attempt counted by a failed submission is kept.
  const outcome = await transaction(async (tx): Promise<Outcome<R>> => {
    const now = clock.date();
    if (code.length === VERIFICATION_CODE_LENGTH) {
      await tx
        .update(verificationCodes)
        .set({ attemptCount: sql`${verificationCodes.attemptCount} + 1` })
        .where(and(inTenancy(verificationCodes, scope), eq(verificationCodes.nonceHash, sha256Hex(nonceOf(code)))));
    }
    const [row] = await tx
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.codeHash, sha256Hex(code)),
          inTenancy(verificationCodes, scope),
          eq(verificationCodes.purpose, scope.purpose),
        ),
      )
      .for("update");
    if (!row) return { error: new KnownErrors.VerificationCodeNotFound() };
    if (row.expiresAt.getTime() <= now.getTime()) return { error: new KnownErrors.VerificationCodeExpired() };
    if (row.usedAt !== null) return { error: new KnownErrors.VerificationCodeAlreadyUsed() };
    // The count includes this submission: 20 are looked at, the 21st is refused.
    if (row.attemptCount > VERIFICATION_CODE_MAX_ATTEMPTS) return { error: new KnownErrors.VerificationCodeMaxAttemptsReached() };
    if (!apply) return { data: row.data as R };
    const refused = refuse && (await refuse(tx, row.data as T));
    if (refused) return { error: refused };
    await tx
      .update(verificationCodes)
      .set({ usedAt: now })
      .where(and(inTenancy(verificationCodes, scope), eq(verificationCodes.id, row.id)));
    return { data: await apply(tx, row.data as T) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.data;
}

function nonceOf(code: string): string {
  return code.slice(OTP_DISPLAYED_LENGTH);
}
