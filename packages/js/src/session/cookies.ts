/** Browser cookies, read and written through `document.cookie`. */

export function readCookies(): Record<string, string> {
  return typeof document === "undefined" ? {} : parseCookieHeader(document.cookie);
}

/** The cookies of a `Cookie` header (or `document.cookie`) by name. */
export function parseCookieHeader(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    try {
      out[name] = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      // A cookie another script wrote in another encoding: not ours.
    }
  }
  return out;
}

/** `path`: the pages that receive it (and may read it); "/" for all. A cookie is deleted with the path it was written with. */
export function writeCookie(name: string, value: string | null, maxAgeSeconds: number, path = "/"): void {
  if (typeof document === "undefined") return;
  const secure = typeof location !== "undefined" && location.protocol === "https:" ? "; Secure" : "";
  document.cookie =
    value === null
      ? `${name}=; Path=${path}; Max-Age=0; SameSite=Lax${secure}`
      : `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}
