/**
 * Links the server mails out (verification, sign-in, password reset) point
 * at the app's own pages. Only URLs on one of the project's trusted domains
 * (or on localhost, when the project allows it) are accepted, so no one can
 * make the platform mail a code to a page an attacker controls.
 */
import { KnownErrors } from "@latchkey/shared";
import type { ProjectConfig } from "./config.ts";
import { escapeRegExp } from "../../lib/regex.ts";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isTrustedUrl(config: Pick<ProjectConfig, "allow_localhost" | "domains">, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (parsed.username || parsed.password) return false;
  if (config.allow_localhost && (LOCAL_HOSTS.has(parsed.hostname) || parsed.hostname.endsWith(".localhost"))) return true;
  return config.domains.some(({ domain }) => originMatches(domain, parsed));
}

/**
 * Whether a page on `hostname` (a bare host, as a bot challenge reports where
 * it was solved) belongs to the app: a trusted domain's host, whatever its
 * scheme and port, or localhost when the project allows it.
 */
export function isTrustedHostname(config: Pick<ProjectConfig, "allow_localhost" | "domains">, hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (config.allow_localhost && (LOCAL_HOSTS.has(host) || host === "::1" || host.endsWith(".localhost"))) return true;
  return config.domains.some(({ domain }) => {
    const match = /^https?:\/\/([^/?#]*)/i.exec(domain);
    return match !== null && hostPatternRegex(match[1]!.replace(/:\d+$/, "")).test(host);
  });
}

/** Throws REDIRECT_URL_NOT_WHITELISTED unless the URL is trusted. */
export function assertTrustedUrl(config: Pick<ProjectConfig, "allow_localhost" | "domains">, url: string): void {
  if (!isTrustedUrl(config, url)) throw new KnownErrors.RedirectUrlNotWhitelisted();
}

/**
 * A pattern is `http(s)://host[:port]` with `*` standing for one DNS label
 * (or part of one), never a dot: `https://*.example.com` trusts
 * `app.example.com`, not `evil.com/.example.com` or `a.b.example.com`. Trust
 * is per origin: a path in the pattern (the handler path) does not narrow it.
 */
function originMatches(pattern: string, url: URL): boolean {
  const match = /^(https?):\/\/([^/?#]*)/i.exec(pattern);
  if (!match) return false;
  const [, scheme, authority] = match as unknown as [string, string, string];
  if (`${scheme.toLowerCase()}:` !== url.protocol) return false;
  const portMatch = /:(\d+)$/.exec(authority);
  const hostPattern = (portMatch ? authority.slice(0, -portMatch[0].length) : authority).toLowerCase();
  const defaultPort = url.protocol === "https:" ? "443" : "80";
  const wantedPort = portMatch ? portMatch[1] : defaultPort;
  if ((url.port || defaultPort) !== wantedPort) return false;
  return hostPatternRegex(hostPattern).test(url.hostname);
}

function hostPatternRegex(hostPattern: string): RegExp {
  return new RegExp(`^${hostPattern.toLowerCase().split("*").map(escapeRegExp).join("[^.]+")}$`);
}
