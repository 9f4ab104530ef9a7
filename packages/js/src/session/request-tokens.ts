/**
 * The tokens a request to the app's own backend carries, read where the
 * SDK's clients put them, first found wins: `Authorization: Bearer
 * stackauth_<base64 of { accessToken, refreshToken }>` (getAuthorizationHeader),
 * the `x-stack-auth` header (its JSON; getAuthHeaders), or the cookies a
 * browser with `tokenStore: "cookie"` sends along (token-store.ts).
 */
import { parseCookieHeader } from "./cookies.ts";
import type { Tokens } from "./session.ts";
import { ACCESS_COOKIE_NAME, refreshCookieNameOf } from "./token-store.ts";

/**
 * A request as a Fetch `Request` (headers with `get`) or a Node
 * `IncomingMessage` (a record of lower-cased header names) has it.
 */
export interface RequestLike {
  headers: { get(name: string): string | null } | Record<string, string | string[] | null | undefined>;
}

export const AUTH_JSON_HEADER = "x-stack-auth";
const AUTHORIZATION_PREFIX = "stackauth_";

export function isRequestLike(value: object): value is RequestLike {
  const headers = (value as { headers?: unknown }).headers;
  return typeof headers === "object" && headers !== null;
}

/** `Bearer stackauth_<base64(JSON)>`, or null when there is no token to send. */
export function authorizationHeaderOf(tokens: Tokens): string | null {
  if (tokens.accessToken === null && tokens.refreshToken === null) return null;
  const json = JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
  return `Bearer ${AUTHORIZATION_PREFIX}${bytesToBase64(new TextEncoder().encode(json))}`;
}

export function tokensOfRequest(request: RequestLike, projectId: string): Tokens {
  const authorization = headerOf(request, "authorization");
  const fromAuthorization = authorization === null ? null : tokensOfAuthorization(authorization);
  if (fromAuthorization) return fromAuthorization;
  const authJson = headerOf(request, AUTH_JSON_HEADER);
  if (authJson) return tokensOfJson(parseJson(authJson, `The ${AUTH_JSON_HEADER} header is not JSON.`), AUTH_JSON_HEADER);
  return tokensOfCookies(parseCookieHeader(headerOf(request, "cookie") ?? ""), projectId);
}

/** Null for another scheme (e.g. the app's own bearer tokens): then the other places are looked at. */
function tokensOfAuthorization(value: string): Tokens | null {
  const credential = /^Bearer\s+(.+)$/i.exec(value.trim())?.[1];
  if (!credential?.startsWith(AUTHORIZATION_PREFIX)) return null;
  const encoded = credential.slice(AUTHORIZATION_PREFIX.length);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(base64ToBytes(encoded));
  } catch {
    throw new Error("The Authorization header's stackauth_ value is not base64 of UTF-8 text.");
  }
  return tokensOfJson(parseJson(text, "The Authorization header's stackauth_ value is not base64 of JSON."), "Authorization header");
}

function tokensOfJson(json: unknown, where: string): Tokens {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error(`The ${where} must hold a JSON object.`);
  const { accessToken = null, refreshToken = null } = json as Record<string, unknown>;
  if (accessToken !== null && typeof accessToken !== "string") throw new Error(`The ${where}'s accessToken must be a string or null.`);
  if (refreshToken !== null && typeof refreshToken !== "string") throw new Error(`The ${where}'s refreshToken must be a string or null.`);
  return { accessToken, refreshToken };
}

/**
 * The refresh token is in `stack-refresh-<projectId>` (or the older
 * `stack-refresh`), or in `[__Host-]stack-refresh-<projectId>--<suffix>`
 * cookies as `{ refresh_token, updated_at_millis }` (one per domain it was
 * written for; the latest wins); `stack-access` holds
 * `[refresh token, access token]`, used only beside its own refresh token.
 */
function tokensOfCookies(cookies: Record<string, string>, projectId: string): Tokens {
  const refreshToken = refreshTokenOfCookies(cookies, projectId);
  let accessToken: string | null = null;
  const pair = parseJsonOrNull(cookies[ACCESS_COOKIE_NAME]);
  if (Array.isArray(pair) && pair.length === 2 && pair[0] === refreshToken && typeof pair[1] === "string") accessToken = pair[1];
  return { accessToken, refreshToken };
}

function refreshTokenOfCookies(cookies: Record<string, string>, projectId: string): string | null {
  const name = refreshCookieNameOf(projectId);
  const plain = cookies[name] || cookies["stack-refresh"];
  if (plain) return plain;
  const prefixes = [`${name}--`, `__Host-${name}--`];
  let latest: { token: string; at: number } | null = null;
  for (const [name, value] of Object.entries(cookies)) {
    if (!prefixes.some((prefix) => name.startsWith(prefix))) continue;
    const json = parseJsonOrNull(value) as { refresh_token?: unknown; updated_at_millis?: unknown } | null;
    if (typeof json?.refresh_token !== "string" || json.refresh_token === "") continue;
    const at = typeof json.updated_at_millis === "number" ? json.updated_at_millis : Number.NEGATIVE_INFINITY;
    if (latest === null || at > latest.at) latest = { token: json.refresh_token, at };
  }
  return latest?.token ?? null;
}

function headerOf(request: RequestLike, name: string): string | null {
  const headers = request.headers;
  if (typeof headers.get === "function") return (headers as { get(name: string): string | null }).get(name);
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | null | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(name === "cookie" ? "; " : ", ");
    return value ?? null;
  }
  return null;
}

function parseJson(text: string, message: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(message);
  }
}

function parseJsonOrNull(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function bytesToBase64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}

/** Standard base64 or its URL-safe form, padded or not. */
function base64ToBytes(text: string): Uint8Array {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
}
