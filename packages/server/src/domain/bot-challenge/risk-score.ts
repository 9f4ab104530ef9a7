import type { BotChallengeOutcome } from "./verify.ts";

/**
 * A new account's `risk_scores.sign_up.bot` (0-100) from the challenge it
 * answered. A verified human scores 0 and a failed or missing token 100 (the
 * ends of the scale, so an app can act on them without guessing). A challenge
 * nobody could verify (the widget could not run, or the verification service
 * was down) says nothing either way, so it sits in the middle: worse than a
 * pass, never as bad as a failure the app might block on.
 */
const SCORES: Record<BotChallengeOutcome, number> = { ok: 0, error: 50, invalid: 100 };

export function signUpBotRiskScore(outcome: BotChallengeOutcome): number {
  return SCORES[outcome];
}
