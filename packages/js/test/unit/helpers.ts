import { vi } from "vitest";
import { ApiClient, type ApiClientOptions } from "../../src/interface/api-client.ts";

/** Small builders shared by the unit tests (not a test file itself). */

/** An unsigned JWT-shaped token whose payload carries `exp` (seconds) and any extra claims. */
export function makeAccessToken(expMillis: number, claims: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode({ sub: "user-1", ...claims, exp: Math.floor(expMillis / 1000) })}.sig`;
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A coded error as the server sends it: header plus `{ code, details?, error }` body. */
export function knownErrorResponse(
  code: string,
  status: number,
  message = `${code} happened`,
  details?: Record<string, unknown>,
  bodyCode: string = code,
): Response {
  return jsonResponse(details === undefined ? { code: bodyCode, error: message } : { code: bodyCode, details, error: message }, status, {
    "x-stack-known-error": code,
  });
}

/** An ApiClient whose fetch answers with the given responses in order (an Error is thrown as a network failure). */
export const BASE = "http://api.test:8102";

export function setup(responses: Array<Response | Error>, options: Partial<ApiClientOptions> = {}) {
  const calls: Array<{ url: string; init: RequestInit & { headers: Record<string, string> } }> = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init as RequestInit & { headers: Record<string, string> } });
    const next = responses.shift();
    if (next === undefined) throw new Error("no more responses");
    if (next instanceof Error) throw next;
    return next;
  });
  const client = new ApiClient({ baseUrl: BASE, projectId: "proj-1", fetch: fetchMock as typeof fetch, ...options });
  return { client, calls, fetchMock };
}

/** Settles a promise into a value we can inspect without unhandled rejections. */
export function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}
