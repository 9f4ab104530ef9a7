/**
 * Signing up with an e-mail and a password. Hashing the password and
 * rendering the verification mail are the slow parts and need no lock, so
 * they run before the transaction that creates the user, stores the
 * verification code and signs the user in. A caller signed in as an
 * anonymous user who signs up this way keeps their id and data.
 */
import { KnownErrors } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import { signUpBotRiskScore } from "../../bot-challenge/risk-score.ts";
import { checkBotChallenge, type BotChallengeInput } from "../../bot-challenge/verify.ts";
import { findPrimaryChannel } from "../../contact-channels/channels.ts";
import { prepareChannelVerification, saveChannelVerification } from "../../contact-channels/verification.ts";
import { assertTrustedUrl } from "../../projects/trusted-urls.ts";
import { signIn } from "../../sessions/issue.ts";
import { createUser } from "../../users/create.ts";
import type { UserRecord } from "../../users/record.ts";
import { upgradeAnonymousUser } from "../anonymous/upgrade-anonymous.ts";
import type { SignUpPolicy } from "../otp/otp-sign-in.ts";
import { checkPasswordRules, hashPassword } from "./passwords.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export interface PasswordSignUp extends SignUpPolicy {
  email: string;
  password: string;
  /** Where the verification mail's link leads; undefined: no verification mail. */
  callbackUrl: string | undefined;
  botChallenge: BotChallengeInput;
  remoteIp: string | null;
  /** The client's country as a trusted proxy gave it (http/client-address.ts), kept on a new user. */
  countryCode: string | null;
  /** The caller, when signed in as an anonymous user: upgraded in place rather than a new user. */
  anonymousUser: UserRecord | null;
}

export async function signUpWithPassword(
  services: Services,
  project: ProjectRow,
  branchId: string,
  input: PasswordSignUp,
): Promise<{ accessToken: string; refreshToken: string; userId: string }> {
  const { config } = project;
  if (!input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
  checkPasswordRules(input.password);
  const { callbackUrl, anonymousUser } = input;
  if (callbackUrl !== undefined) assertTrustedUrl(config, callbackUrl);
  const botOutcome = await checkBotChallenge(
    { siteverify: services.siteverify, config, action: "sign_up_with_credential", remoteIp: input.remoteIp },
    input.botChallenge,
  );
  const botRiskScore = signUpBotRiskScore(botOutcome);
  const [passwordHash, verification] = await Promise.all([
    hashPassword(input.password),
    callbackUrl === undefined
      ? null
      : prepareChannelVerification(services.db, services.logger, project, branchId, input.email, callbackUrl),
  ]);
  const result = await services.events.transaction(services.db, async (tx) => {
    const user = anonymousUser
      ? await upgradeAnonymousUser(tx, project, anonymousUser, {
          primaryEmail: input.email,
          passwordHash,
          signUpBotRiskScore: botRiskScore,
        })
      : await createUser(tx, project, branchId, {
          signingUp: true,
          primaryEmail: input.email,
          primaryEmailAuthEnabled: true,
          passwordHash,
          signUpBotRiskScore: botRiskScore,
          countryCode: input.countryCode,
          now: services.clock.date(),
        });
    if (verification) {
      // The user was just given this address as their primary e-mail, so the channel exists.
      const channel = await findPrimaryChannel(tx, { projectId: project.id, branchId }, user.id);
      await saveChannelVerification(tx, verification, channel!, services.clock.date());
    }
    return signIn(services, tx, project, user, { ip: input.remoteIp });
  });
  return result;
}
