/**
 * Reading an access token's expiry and identity without verifying it: the
 * SDK only needs to know when to refresh. The server verifies every token.
 */
export interface AccessTokenPayload {
  sub: string;
  exp: number;
  iat: number;
  project_id: string;
  refresh_token_id: string;
  name: string | null;
  email: string | null;
  email_verified: boolean;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: { type: string } | null;
  requires_totp_mfa: boolean;
}

export function decodeAccessToken(token: string): AccessTokenPayload | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(base64UrlDecode(payload)) as unknown;
    if (typeof json !== "object" || json === null || typeof (json as { exp?: unknown }).exp !== "number") return null;
    return json as AccessTokenPayload;
  } catch {
    return null;
  }
}

/** Milliseconds since the epoch when the token expires, or 0 when it cannot be read (treated as expired). */
export function accessTokenExpiresAt(token: string): number {
  return (decodeAccessToken(token)?.exp ?? 0) * 1000;
}

function base64UrlDecode(text: string): string {
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
