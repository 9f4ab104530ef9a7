/**
 * Tokens of the Svix-compatible management API (svix/app.ts): `lksvix_<payload>.<mac>`, the payload naming the
 * project and the expiry, the MAC an HMAC-SHA256 of it keyed by the server secret (so any replica checks it, and
 * rotating the server secret ends them all). Nothing is stored: a token is good for its project until it expires.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Services } from "../../../services.ts";

/** How long a token lasts: a dashboard page asks for a new one whenever it is opened. */
export const SVIX_TOKEN_LIFETIME_MILLIS = 24 * 3600 * 1000;
/** Where the Svix-compatible API is served: the `svix` client calls `${serverUrl}/api/v1/app/...`. */
export const SVIX_BASE_PATH = "/svix";
const PREFIX = "lksvix_";
const PURPOSE = "webhooks-svix-token";

function mac(serverSecret: string, payload: string): Buffer {
  return createHmac("sha256", serverSecret).update(`${PURPOSE}:${payload}`).digest();
}

export function svixToken(services: Pick<Services, "config" | "clock">, projectId: string): string {
  const expires = services.clock.now() + SVIX_TOKEN_LIFETIME_MILLIS;
  const payload = Buffer.from(JSON.stringify({ p: projectId, e: expires })).toString("base64url");
  return `${PREFIX}${payload}.${mac(services.config.serverSecret, payload).toString("base64url")}`;
}

/** The project a token is for, or null when it is not one of ours, was tampered with or has expired. */
export function projectOfSvixToken(services: Pick<Services, "config" | "clock">, token: string): string | null {
  if (!token.startsWith(PREFIX)) return null;
  const [payload, given, ...rest] = token.slice(PREFIX.length).split(".");
  if (!payload || !given || rest.length > 0) return null;
  const expected = mac(services.config.serverSecret, payload);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  try {
    const { p, e } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { p?: unknown; e?: unknown };
    if (typeof p !== "string" || typeof e !== "number" || e <= services.clock.now()) return null;
    return p;
  } catch {
    return null;
  }
}

/** The base URL to give the `svix` client as `serverUrl`. */
export function svixServerUrl(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, "") + SVIX_BASE_PATH;
}
