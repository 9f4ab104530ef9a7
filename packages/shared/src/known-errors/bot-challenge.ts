import { defineKnownError } from "./base.ts";

/** The invisible challenge did not pass: the client shows a visible one and sends the request again. */
export const BotChallengeRequired = defineKnownError("BOT_CHALLENGE_REQUIRED", 409, () => ({
  message: "A bot challenge is required: complete the visible challenge and try again.",
}));

export const BotChallengeFailed = defineKnownError("BOT_CHALLENGE_FAILED", 400, (message: string) => ({
  message,
  details: { message },
}));
