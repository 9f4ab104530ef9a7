/**
 * The process's logger. In production, JSON lines only (one object per line,
 * what log collectors read). In development at a terminal, short readable lines
 * (pino-pretty, written synchronously in this thread: no worker), so they sit
 * under the start banner instead of JSON in the middle of it; piped output
 * stays JSON for scripts. LATCHKEY_LOG_FORMAT=json|pretty chooses in development.
 */
import { pino, type Logger } from "pino";
import { StartupError } from "./startup-error.ts";

export type LogFormat = "json" | "pretty";

export function logFormatFromEnv(env: NodeJS.ProcessEnv, production: boolean): LogFormat {
  const wanted = env.LATCHKEY_LOG_FORMAT;
  if (wanted !== undefined && wanted !== "" && wanted !== "json" && wanted !== "pretty") {
    throw new StartupError(`LATCHKEY_LOG_FORMAT must be json or pretty, not ${JSON.stringify(wanted)}.`);
  }
  if (production) return "json";
  if (wanted) return wanted;
  return process.stdout.isTTY ? "pretty" : "json";
}

export async function processLogger(format: LogFormat, level = process.env.LOG_LEVEL ?? "info"): Promise<Logger> {
  if (format === "json") return pino({ level });
  const { default: pretty } = await import("pino-pretty");
  return pino(
    { level },
    pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }),
  );
}
