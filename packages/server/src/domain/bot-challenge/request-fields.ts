/** The bot challenge fields of a request body (botChallengeFields in @latchkey/shared), as the verifier takes them. */
import type { BotChallengeFields } from "@latchkey/shared";
import type { BotChallengeInput } from "./verify.ts";

export function botChallengeInput(body: BotChallengeFields): BotChallengeInput {
  return {
    token: body.bot_challenge_token,
    phase: body.bot_challenge_phase,
    unavailable: body.bot_challenge_unavailable === "true",
  };
}
