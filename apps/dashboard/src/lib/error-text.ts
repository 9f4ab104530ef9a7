/** Words a person understands for anything a request can throw: the catalogue's message when the server sent one. */
import { HttpError, KnownError, RateLimitedError, StatusError } from "@latchkey/js";

export function errorText(error: unknown): string {
  if (error instanceof KnownError) return error.message;
  if (error instanceof RateLimitedError) return "Too many attempts. Wait a moment and try again.";
  // A refusal without a code (a config key the server does not take) says why in its plain-text body.
  if (error instanceof HttpError && error.status < 500 && error.body) return error.body;
  if (error instanceof StatusError) return error.message || `The server answered ${error.status}.`;
  if (error instanceof TypeError && /fetch/i.test(error.message)) return "The server could not be reached. Is it running?";
  if (error instanceof Error) return error.message;
  return "Something went wrong. Please try again.";
}
