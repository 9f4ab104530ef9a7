/** Where the server listens (PORT) and the public address it is reached at (LATCHKEY_API_URL). */
import { StartupError } from "../process/startup-error.ts";
import { productionReason } from "./production.ts";

export interface AddressConfig {
  port: number;
  /** Public base URL of this server (without /api/v1); used in token issuers. */
  apiUrl: string;
}

export function portFromEnv(text: string | undefined): number {
  if (text === undefined || text === "") return 8102;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port < 1 || port > 65535) {
    throw new StartupError(
      `PORT must be a whole number from 1 to 65535, not ${JSON.stringify(text)}: set PORT to a free port, or unset it for 8102.`,
    );
  }
  return port;
}

export function apiUrlFromEnv(env: NodeJS.ProcessEnv, production: boolean, port: number): string {
  const name = env.LATCHKEY_API_URL ? "LATCHKEY_API_URL" : env.STACK_API_URL ? "STACK_API_URL" : null;
  if (!name) {
    if (production) {
      throw new StartupError(
        `LATCHKEY_API_URL is required in production (${productionReason(env)}): set it to this server's public address, e.g. https://auth.example.com, the same on every replica.`,
      );
    }
    return `http://localhost:${port}`;
  }
  const text = env[name]!;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // answered below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new StartupError(
      `${name} must be an http:// or https:// address, not ${JSON.stringify(text)}: set it to this server's public address.`,
    );
  }
  return text.replace(/\/+$/, "");
}
