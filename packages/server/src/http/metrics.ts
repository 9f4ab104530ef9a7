/**
 * GET /metrics: Prometheus text (lib/metrics.ts). Open in development; in
 * production only with `Authorization: Bearer <LATCHKEY_METRICS_TOKEN>`, and
 * not there at all (404) when no token is set, so a deployment never exposes
 * its numbers by forgetting a setting. A token, once set, is asked for in
 * development too.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { ServerConfig } from "../config.ts";
import type { Metrics } from "../lib/metrics.ts";
import { textResponse } from "./response.ts";
import type { HeaderReader } from "./headers.ts";

export const METRICS_PATH = "/metrics";

export async function metricsResponse(
  config: Pick<ServerConfig, "production" | "metricsToken">,
  metrics: Metrics,
  headers: HeaderReader,
): Promise<Response> {
  if (config.metricsToken === null) {
    if (config.production) return textResponse(404, "Not found. Set LATCHKEY_METRICS_TOKEN to serve /metrics in production.");
  } else if (!sameSecret(bearerToken(headers.get("authorization")), config.metricsToken)) {
    return textResponse(401, "Send Authorization: Bearer <LATCHKEY_METRICS_TOKEN> to read the metrics.", {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  }
  const text = await metrics.registry.metrics();
  return textResponse(200, text, { "content-type": metrics.registry.contentType });
}

function bearerToken(authorization: string | null): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1]! : "";
}

/** Constant time whatever the lengths: digests of equal size are compared, never the strings. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
