/** Reading the Cookie header and writing Set-Cookie (only the OAuth flow uses cookies). */

export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  /** The clock's time (lib/clock.ts), for the Expires date older browsers read. */
  now: number;
}

/** An HttpOnly cookie for the whole site; Max-Age 0 deletes it. */
export function setCookieHeader(name: string, value: string, options: CookieOptions): string {
  const expires = new Date(options.now + options.maxAgeSeconds * 1000).toUTCString();
  return `${name}=${encodeURIComponent(value)}; Path=/; Expires=${expires}; Max-Age=${options.maxAgeSeconds}${options.secure ? "; Secure" : ""}; HttpOnly`;
}
