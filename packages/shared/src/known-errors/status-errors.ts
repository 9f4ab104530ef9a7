/**
 * Failures outside the catalogue: the server answers them as `text/plain`
 * with this status and no error code. Domain code throws them without
 * knowing about HTTP; the server's error handler writes the response.
 */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "StatusError";
  }
}

/** 429 with Retry-After, which the SDK waits out before retrying. */
export class RateLimitedError extends StatusError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(429, message);
    this.name = "RateLimitedError";
  }
}
