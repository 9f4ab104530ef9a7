/**
 * A start that cannot go on because of its environment (a variable, the port,
 * the database, the data directory, a migration): the operator gets one
 * sentence naming what to fix and the process exits with code 1. The cause's
 * stack is shown only at LOG_LEVEL=debug; an unexpected error (a bug) always
 * shows its stack.
 */
import { pino, type Logger } from "pino";
import { MigrationError } from "../db/migrate.ts";

export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartupError";
  }
}

/**
 * Production: one JSON line at level fatal, like every other log line (the
 * process's logger when there is one already). Development: the sentence alone on stderr.
 */
export function reportStartupFailure(error: unknown, production: boolean, logger: Logger | null): void {
  const known = asStartupError(error);
  const debug = ["debug", "trace"].includes(process.env.LOG_LEVEL ?? "");
  if (production) {
    const log = logger ?? pino({ level: process.env.LOG_LEVEL ?? "info" });
    if (known) {
      log.fatal(known.message);
      if (known.cause) log.debug({ err: known.cause }, "cause");
    } else {
      log.fatal({ err: error }, "Latchkey could not start");
    }
    return;
  }
  if (known) {
    console.error(known.message);
    if (debug && known.cause) console.error(known.cause);
  } else {
    console.error("Latchkey could not start:", error);
  }
}

function asStartupError(error: unknown): StartupError | null {
  if (error instanceof StartupError) return error;
  if (error instanceof MigrationError) {
    return new StartupError(`${error.message}; this start applied no migration: fix the cause, then start again.`, { cause: error.cause });
  }
  return null;
}
