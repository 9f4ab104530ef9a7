/**
 * Bot protection for the requests that may create an account (password
 * sign-up, mailing a sign-in code to a new address, OAuth sign-in). A client
 * first runs an invisible challenge; if that does not pass, the server asks
 * for a visible one (BOT_CHALLENGE_REQUIRED) and refuses a visible one that
 * fails (BOT_CHALLENGE_FAILED). Clients that send no phase are never refused:
 * their outcome only feeds the new account's risk score.
 */
import { KnownErrors } from "@latchkey/shared";
import type { Siteverify } from "../../integrations/siteverify.ts";
import type { ProjectConfig } from "../projects/config.ts";
import { isTrustedHostname } from "../projects/trusted-urls.ts";

/** ok: passed (or challenges are off); invalid: failed or missing; error: could not be verified. */
export type BotChallengeOutcome = "ok" | "invalid" | "error";

/** What the widget was told it protects; a token made for one action is no good for another. */
export type BotChallengeAction = "sign_up_with_credential" | "send_magic_link_email" | "oauth_authenticate";

export interface BotChallengeInput {
  token?: string;
  phase?: "invisible" | "visible";
  unavailable?: boolean;
}

export interface BotChallengeContext {
  /** null: challenges are off on this server. */
  siteverify: Siteverify | null;
  config: Pick<ProjectConfig, "allow_localhost" | "domains">;
  action: BotChallengeAction;
  remoteIp: string | null;
}

/** The verdict on one request's challenge, before the phase rules. */
export async function verifyBotChallenge(context: BotChallengeContext, input: BotChallengeInput): Promise<BotChallengeOutcome> {
  if (!context.siteverify) return "ok";
  if (input.unavailable) return "error";
  const token = input.token?.trim();
  if (!token) return "invalid";
  const answer = await context.siteverify.verify({ token, remoteIp: context.remoteIp });
  if (!answer) return "error";
  if (!answer.success) return "invalid";
  if (answer.action !== context.action) return "invalid";
  // Some verifiers leave the hostname out of an answer (keys in testing mode, other deployments of the protocol):
  // the action still binds the token to this step, and a hostname that is there must be trusted.
  if (answer.hostname !== null && !isTrustedHostname(context.config, answer.hostname)) return "invalid";
  return "ok";
}

/**
 * Verifies the challenge and applies the phase rules: throws when the client
 * must show (or failed) a visible challenge, else returns the outcome to
 * record on the account the request creates.
 */
export async function checkBotChallenge(context: BotChallengeContext, input: BotChallengeInput): Promise<BotChallengeOutcome> {
  const outcome = await verifyBotChallenge(context, input);
  if (input.phase === "invisible" && outcome !== "ok") throw new KnownErrors.BotChallengeRequired();
  if (input.phase === "visible") {
    if (outcome !== "ok") {
      throw new KnownErrors.BotChallengeFailed(
        outcome === "error"
          ? "The bot challenge could not be verified. Try again later."
          : "The bot challenge was not passed. Complete it and try again.",
      );
    }
    // A visible challenge is only shown after the invisible one failed; passing it proves a person
    // was there, not that the invisible step passed, and the score records the invisible step.
    // With challenges off nothing failed, so nothing is held against the account.
    return context.siteverify ? "invalid" : "ok";
  }
  return outcome;
}
