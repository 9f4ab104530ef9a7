/**
 * Failures that are not in the error catalogue. Coded failures arrive as the
 * catalogue's own classes (`KnownErrors.*` from @latchkey/shared).
 */
import { StatusError } from "@latchkey/shared/known-errors/index";

/**
 * The server answered with a status the SDK does not handle and no error
 * code: the same `StatusError` the server threw, with the request it answered.
 */
export class HttpError extends StatusError {
  constructor(
    status: number,
    readonly body: string,
    readonly method: string,
    readonly url: string,
  ) {
    super(status, `${method} ${url} failed with status ${status}${body ? `: ${body.slice(0, 500)}` : ""}`);
    this.name = "HttpError";
  }
}

/** The request never got an answer. */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConnectionError";
  }
}

export const OFFLINE_MESSAGE = "You are offline. Please check your internet connection and try again.";

export function cannotConnectMessage(baseUrl: string, attempts: number, cause: unknown): string {
  const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return [
    `Latchkey could not connect to its server at ${baseUrl} (${attempts} attempt${attempts === 1 ? "" : "s"}).`,
    "Check that the server is running and that this base URL is right, and that nothing (CORS, a proxy, a firewall) blocks the request.",
    `Last error: ${reason}`,
  ].join(" ");
}

/** The server reported a coded error in one place and another code in the other. */
export class KnownErrorMismatchError extends Error {
  constructor(headerCode: string, bodyCode: unknown) {
    super(
      `The server's answer is inconsistent: the x-stack-known-error header says ${headerCode}, but the body's code is ${JSON.stringify(bodyCode)}. A proxy may have changed the response.`,
    );
    this.name = "KnownErrorMismatchError";
  }
}

export const USER_NOT_SIGNED_IN_THROW_MESSAGE = "User is not signed in but getUser was called with { or: 'throw' }";
