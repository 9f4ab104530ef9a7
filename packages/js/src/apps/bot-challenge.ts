/**
 * The bot challenge an app may send with requests that can create an
 * account: the token its Turnstile widget produced and the step it came
 * from, or that no widget could run. The server answers a failed invisible
 * step with BOT_CHALLENGE_REQUIRED (show a visible widget and send again with
 * phase "visible") and a failed visible one with BOT_CHALLENGE_FAILED.
 */
import type { BotChallengeFields } from "@latchkey/shared/api/index";
import { KnownErrors } from "@latchkey/shared/known-errors/index";

export interface BotChallenge {
  token?: string;
  phase?: "invisible" | "visible";
  /** No widget could run (e.g. its script was blocked); never together with a token or phase. */
  unavailable?: true;
}

export type BotChallengeError = InstanceType<typeof KnownErrors.BotChallengeRequired> | InstanceType<typeof KnownErrors.BotChallengeFailed>;

export const BOT_CHALLENGE_ERRORS = [KnownErrors.BotChallengeRequired, KnownErrors.BotChallengeFailed];

/** The request body fields for `challenge` (none without one). */
export function botChallengeFields(challenge: BotChallenge | undefined): BotChallengeFields {
  if (!challenge) return {};
  const fields: BotChallengeFields = {};
  if (challenge.token !== undefined) fields.bot_challenge_token = challenge.token;
  if (challenge.phase !== undefined) fields.bot_challenge_phase = challenge.phase;
  if (challenge.unavailable) fields.bot_challenge_unavailable = "true";
  return fields;
}
