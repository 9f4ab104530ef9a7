/**
 * Signing a command-line tool in through the browser: the CLI asks for a
 * login (`POST /auth/cli`), shows the user a link that carries the login
 * code and polls with its polling code; a signed-in user opens the link and
 * confirms (`/auth/cli/complete`); the next poll hands the CLI that user's
 * refresh token, once. Bad or spent login codes are refused as plain text
 * (400), never with a code: the browser page shows the message as it is.
 */
import { z } from "zod";
import { CLI_AUTH_MAX_EXPIRATION_MILLIS } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";
import { successJson } from "./json.ts";

export const createCliAuthBody = z.strictObject({
  /** How long the login may wait for the browser (default 2 hours, at most 24). */
  expires_in_millis: z.number().int().min(1).max(CLI_AUTH_MAX_EXPIRATION_MILLIS).optional(),
  /** The CLI's own anonymous session, which the browser may take over before signing up. */
  anon_refresh_token: z.string().optional(),
});
export type CreateCliAuthBody = z.input<typeof createCliAuthBody>;

export const cliAuthJson = z.strictObject({
  /** Kept by the CLI, sent with every poll. */
  polling_code: z.string(),
  /** Goes into the link the user opens in the browser. */
  login_code: z.string(),
  /** ISO 8601. */
  expires_at: z.string(),
});
export type CliAuthJson = z.infer<typeof cliAuthJson>;

export const pollCliAuthBody = z.strictObject({ polling_code: z.string() });

/** 200 while there is nothing to hand over; 201 with the refresh token, once. */
export const cliAuthPollJson = z.discriminatedUnion("status", [
  z.strictObject({ status: z.enum(["waiting", "expired", "used"]) }),
  z.strictObject({ status: z.literal("success"), refresh_token: z.string() }),
]);
export type CliAuthPollJson = z.infer<typeof cliAuthPollJson>;

export const CLI_AUTH_COMPLETE_MODES = ["complete", "check", "claim-anon-session"] as const;

export const completeCliAuthBody = z.strictObject({
  login_code: z.string(),
  /**
   * `complete` (default): hand the CLI the session of `refresh_token`.
   * `check`: whether the CLI came with an anonymous session the browser may take over.
   * `claim-anon-session`: hand the browser that session (once), the CLI's own refresh token with a fresh
   *   access token, to sign up as that user (upgraded in place, so the CLI's session becomes the account's).
   */
  mode: z.enum(CLI_AUTH_COMPLETE_MODES).default("complete"),
  /** The confirming browser's refresh token (mode `complete`). */
  refresh_token: z.string().optional(),
});
export type CompleteCliAuthBody = z.input<typeof completeCliAuthBody>;

export const cliSessionStateJson = z.strictObject({ cli_session_state: z.enum(["anonymous", "none"]) });
export const claimedAnonSessionJson = z.strictObject({ access_token: z.string(), refresh_token: z.string() });

export const completeCliAuthJson = z.union([successJson, cliSessionStateJson, claimedAnonSessionJson]);
export type CompleteCliAuthJson = z.infer<typeof completeCliAuthJson>;

const ALL = ["client", "server", "admin"] as const;

export const cliAuthEndpoints = {
  createCliAuth: defineEndpoint({
    method: "POST",
    path: "/auth/cli",
    summary: "Start a CLI login: a polling code for the CLI, a login code for the browser",
    tags: ["CLI authentication"],
    access: ALL,
    body: createCliAuthBody,
    response: cliAuthJson,
  }),
  pollCliAuth: defineEndpoint({
    method: "POST",
    path: "/auth/cli/poll",
    summary: "Ask whether the browser confirmed a CLI login (201 with the refresh token, once)",
    tags: ["CLI authentication"],
    access: ALL,
    body: pollCliAuthBody,
    otherStatuses: [201],
    response: cliAuthPollJson,
    errors: [KnownErrors.InvalidPollingCode],
  }),
  completeCliAuth: defineEndpoint({
    method: "POST",
    path: "/auth/cli/complete",
    summary: "Confirm a CLI login from the browser, or check or claim the CLI's anonymous session",
    tags: ["CLI authentication"],
    access: ALL,
    body: completeCliAuthBody,
    response: completeCliAuthJson,
    errors: [KnownErrors.RestrictedUserNotAllowed],
  }),
};
