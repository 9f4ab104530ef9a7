/**
 * Finishing a sign-in with the second factor: the attempt code the first
 * factor earned, and a current TOTP code of the user's secret. The attempt
 * code is spent only by a right TOTP; every submission counts against its
 * attempts (verification-codes.ts), wrong TOTP codes also against the user,
 * and a time step once accepted is refused after (RFC 6238 §5.2).
 */
import { KnownErrors, RateLimitedError } from "@latchkey/shared";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Tx } from "../../../db/connect.ts";
import { users } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import { useCode, type CodeScope } from "../../codes/verification-codes.ts";
import { signIn } from "../../sessions/issue.ts";
import { findUser, type UserRecord } from "../../users/record.ts";
import type { MfaAttemptData, SignedIn } from "../complete-sign-in.ts";
import { totpSecretOf, totpStepOf } from "./totp.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export function signInWithTotp(
  services: Services,
  project: ProjectRow,
  branchId: string,
  attemptCode: string,
  totp: string,
  ip: string | null = null,
): Promise<SignedIn> {
  const scope: CodeScope = { projectId: project.id, branchId, purpose: "mfa_attempt" };
  const limiterKey = (userId: string) => `${project.id}:${userId}`;
  // The user as the refusal check read them; it runs first, in the same transaction, so apply need not read again.
  let checked: UserRecord | null = null;
  return useCode<MfaAttemptData, SignedIn>(
    services,
    scope,
    attemptCode,
    async (tx, data) => {
      const user = checked ?? (await findUser(tx, project.id, branchId, data.user_id))!;
      const session = await signIn(services, tx, project, user, { ip });
      return { accessToken: session.accessToken, refreshToken: session.refreshToken, userId: user.id, isNewUser: data.is_new_user };
    },
    async (tx, data) => {
      const user = await findUser(tx, project.id, branchId, data.user_id);
      // The user was deleted since: the code leads nowhere.
      if (!user) return new KnownErrors.VerificationCodeNotFound();
      checked = user;
      const secret = totpSecretOf(services.config.serverSecret, user);
      // Two-factor was turned off since: the first factor is all this user needs now.
      if (secret === null) return null;
      const wait = services.signInRateLimit.totpPerUser.retryAfterSeconds(limiterKey(user.id));
      if (wait > 0) return new RateLimitedError(wait, "Too many wrong codes. Wait a few minutes, then try again.");
      const step = totpStepOf(secret, totp, services.clock.now());
      if (step === null) {
        services.signInRateLimit.totpPerUser.recordFailure(limiterKey(user.id));
        return new KnownErrors.InvalidTotpCode();
      }
      if (!(await claimStep(tx, { projectId: project.id, branchId }, user.id, step))) return new KnownErrors.InvalidTotpCode();
      return null;
    },
  );
}

/** Records `step` as the user's last used one unless it (or a later one) was used already; the row lock orders racing sign-ins. */
async function claimStep(tx: Tx, t: Tenancy, userId: string, step: number): Promise<boolean> {
  const claimed = await tx
    .update(users)
    .set({ totpLastUsedStep: step })
    .where(and(inTenancy(users, t), eq(users.id, userId), or(isNull(users.totpLastUsedStep), lt(users.totpLastUsedStep, step))))
    .returning({ id: users.id });
  return claimed.length > 0;
}
