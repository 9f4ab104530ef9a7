/**
 * The bot challenge's verification service: a form POST of the secret, the
 * token the widget produced and the caller's address, answered with whether
 * the token is genuine and which action and hostname it was made for
 * (Cloudflare Turnstile's siteverify protocol). The domain sees only the
 * `Siteverify` interface, so another implementation can stand in for it.
 */
import type { Logger } from "pino";

export interface SiteverifyAnswer {
  success: boolean;
  action: string | null;
  hostname: string | null;
  errorCodes: string[];
}

export interface Siteverify {
  /** null when the service could not be reached, or did not answer in time or in its format. */
  verify(input: { token: string; remoteIp: string | null }): Promise<SiteverifyAnswer | null>;
}

export interface SiteverifySettings {
  url: string;
  secretKey: string;
  timeoutMillis: number;
}

export function httpSiteverify(settings: SiteverifySettings, logger: Logger): Siteverify {
  return {
    async verify({ token, remoteIp }) {
      const form = new URLSearchParams({ secret: settings.secretKey, response: token });
      if (remoteIp) form.set("remoteip", remoteIp);
      let response: Response;
      try {
        response = await fetch(settings.url, {
          method: "POST",
          body: form,
          signal: AbortSignal.timeout(settings.timeoutMillis),
          redirect: "error",
        });
      } catch (error) {
        // The form carries the secret and the token: only the reason is logged.
        logger.warn({ reason: (error as Error).name, url: settings.url }, "bot challenge verification unreachable");
        return null;
      }
      if (!response.ok) {
        logger.warn({ status: response.status, url: settings.url }, "bot challenge verification answered an error status");
        await response.body?.cancel();
        return null;
      }
      try {
        return parseAnswer(await response.json());
      } catch (error) {
        logger.warn({ reason: (error as Error).name, url: settings.url }, "bot challenge verification answer unreadable");
        return null;
      }
    },
  };
}

function parseAnswer(json: unknown): SiteverifyAnswer | null {
  if (typeof json !== "object" || json === null) return null;
  const body = json as Record<string, unknown>;
  if (typeof body.success !== "boolean") return null;
  const errorCodes = body["error-codes"];
  return {
    success: body.success,
    action: typeof body.action === "string" ? body.action : null,
    hostname: typeof body.hostname === "string" ? body.hostname : null,
    errorCodes: Array.isArray(errorCodes) ? errorCodes.filter((c): c is string => typeof c === "string") : [],
  };
}
