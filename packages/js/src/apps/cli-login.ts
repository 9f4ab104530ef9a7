/**
 * Signing a command-line tool in through the browser. The CLI side
 * (`promptCliLogin`) runs anywhere, plain Node included: it starts a login,
 * shows the user a link to the app's confirmation page and polls until the
 * browser confirms; it receives a refresh token. The browser side confirms
 * with the signed-in session (its refresh token never leaves the SDK), or,
 * signed out, checks for and takes over the CLI's anonymous session.
 *
 * The server refuses a bad login code (and the like) as plain text; those
 * refusals come back here as CLI_AUTH_ERROR with the server's words.
 *
 * A login may wait for hours, so a poll that gets no answer (the network
 * dropped, the laptop slept) or a server error (5xx) does not end it: the
 * CLI waits and polls again, and that poll counts toward `maxAttempts`.
 * Polling is safe to repeat until it succeeds; if the `success` answer
 * itself is lost on the way, the next poll hears `used`
 * (CLI_AUTH_USED_ERROR), and the user starts again.
 */
import { CLI_POLL_INTERVAL_MILLIS } from "@latchkey/shared/constants";
import { KnownError, KnownErrors } from "@latchkey/shared/known-errors/index";
import { ConnectionError, HttpError } from "../errors.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { sleep } from "../interface/retry.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";

export type CliAuthError = InstanceType<typeof KnownErrors.CliAuthError>;
export type CliLoginError =
  CliAuthError | InstanceType<typeof KnownErrors.CliAuthExpiredError> | InstanceType<typeof KnownErrors.CliAuthUsedError>;
export type CliConfirmError = CliAuthError | InstanceType<typeof KnownErrors.RestrictedUserNotAllowed>;

export interface PromptCliLoginOptions {
  /** Where the app that shows the confirmation page runs, e.g. `https://app.example.com`. */
  appUrl: string;
  /** How long the user has to confirm (the server's default: 2 hours; at most 24). */
  expiresInMillis?: number;
  /** Polls before giving up (default: no limit, until the login expires); polls that failed (no answer, 5xx) count too. */
  maxAttempts?: number;
  /** Between two polls, and after a failed one (default 2000 ms). */
  waitTimeMillis?: number;
  /** Shows the user the link (e.g. opens a browser); by default it is printed to the console. */
  promptLink?: (url: string) => void;
}

export interface CliLoginContext {
  api: ApiClient;
  accessType: AccessType;
}

/** The path of the confirmation page under the app's URL (StackHandler's page `cliAuthConfirm`). */
export const CLI_AUTH_CONFIRM_PATH = "/handler/cli-auth-confirm";

export async function promptCliLogin(ctx: CliLoginContext, options: PromptCliLoginOptions): Promise<Result<string, CliLoginError>> {
  const maxAttempts = options.maxAttempts ?? Infinity;
  const waitTimeMillis = options.waitTimeMillis ?? CLI_POLL_INTERVAL_MILLIS;
  const started = await failureAsResult(() =>
    ctx.api.call("POST /auth/cli", {
      accessType: ctx.accessType,
      body: options.expiresInMillis === undefined ? {} : { expires_in_millis: options.expiresInMillis },
    }),
  );
  if (started.status === "error") return started;

  const url = `${options.appUrl.replace(/\/+$/, "")}${CLI_AUTH_CONFIRM_PATH}?login_code=${encodeURIComponent(started.data.login_code)}`;
  if (options.promptLink) options.promptLink(url);
  else console.log(`Please visit the following URL to authenticate:\n${url}`);

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const polled = await failureAsResult(async () => {
      try {
        return await ctx.api.call("POST /auth/cli/poll", { accessType: ctx.accessType, body: { polling_code: started.data.polling_code } });
      } catch (error) {
        if (isTransient(error)) return { status: "waiting" as const };
        throw error;
      }
    });
    if (polled.status === "error") return polled;
    const answer = polled.data;
    switch (answer.status) {
      case "success":
        return Result.ok(answer.refresh_token);
      case "expired":
        return Result.error(new KnownErrors.CliAuthExpiredError());
      case "used":
        return Result.error(new KnownErrors.CliAuthUsedError());
      case "waiting":
        break;
      default:
        return Result.error(
          new KnownErrors.CliAuthError(`Unexpected status from CLI auth polling: ${(answer as { status: unknown }).status}`),
        );
    }
    if (attempt < maxAttempts) await sleep(waitTimeMillis);
  }
  return Result.error(new KnownErrors.CliAuthError("Timed out waiting for CLI authentication."));
}

/** No answer, or a server error without a code: worth polling again. */
function isTransient(error: unknown): boolean {
  return error instanceof ConnectionError || (error instanceof HttpError && error.status >= 500);
}

/** A refusal from the server becomes a CLI_AUTH_ERROR naming its status; no answer at all is still thrown. */
async function failureAsResult<T>(call: () => Promise<T>): Promise<Result<T, CliAuthError>> {
  try {
    return Result.ok(await call());
  } catch (error) {
    if (error instanceof HttpError)
      return Result.error(new KnownErrors.CliAuthError(`Failed to initiate CLI auth: ${error.status} ${error.body}`));
    if (error instanceof KnownError) {
      return Result.error(new KnownErrors.CliAuthError(`Failed to initiate CLI auth: ${error.statusCode} ${error.message}`));
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------
// The browser's side

export interface CliConfirmContext extends CliLoginContext {
  session: Session;
}

/** The server's plain-text refusal (400) as CLI_AUTH_ERROR, in its own words. */
async function refusalAsResult<T, E = never>(expected: readonly (abstract new (...a: any[]) => E)[], call: () => Promise<T>) {
  return Result.of<T, E | CliAuthError>([KnownErrors.CliAuthError, ...expected], async () => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) throw new KnownErrors.CliAuthError(error.body);
      throw error;
    }
  });
}

/** Hands the CLI the signed-in user's session. */
export async function confirmCliLogin(ctx: CliConfirmContext, loginCode: string): Promise<Result<undefined, CliConfirmError>> {
  const refreshToken = ctx.session.tokens.refreshToken;
  if (refreshToken === null) return Result.error(new KnownErrors.CliAuthError("Sign in to authorize the CLI application."));
  return refusalAsResult([KnownErrors.RestrictedUserNotAllowed], async () => {
    await ctx.api.call("POST /auth/cli/complete", {
      accessType: ctx.accessType,
      body: { login_code: loginCode, mode: "complete", refresh_token: refreshToken },
    });
    return undefined;
  });
}

/** Whether the CLI came with an anonymous session the browser may take over. */
export function getCliLoginSessionState(ctx: CliLoginContext, loginCode: string): Promise<Result<"anonymous" | "none", CliAuthError>> {
  return refusalAsResult([], async () => {
    const answer = await ctx.api.call("POST /auth/cli/complete", {
      accessType: ctx.accessType,
      body: { login_code: loginCode, mode: "check" },
    });
    if (!("cli_session_state" in answer)) throw new Error("The server answered a CLI session check without a state.");
    return answer.cli_session_state;
  });
}

/** Takes over the CLI's anonymous session: the browser is then signed in with it, as that anonymous user. */
export function claimCliAnonSession(ctx: CliConfirmContext, loginCode: string): Promise<Result<undefined, CliAuthError>> {
  return refusalAsResult([], async () => {
    const answer = await ctx.api.call("POST /auth/cli/complete", {
      accessType: ctx.accessType,
      body: { login_code: loginCode, mode: "claim-anon-session" },
    });
    if (!("access_token" in answer)) throw new Error("The server answered a claim of the CLI's session without tokens.");
    ctx.session.set({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
    return undefined;
  });
}
