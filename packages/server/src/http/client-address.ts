/**
 * Who is calling: the client's address and, when a proxy in front says so,
 * its country. Behind a reverse proxy the socket's peer is the proxy, so the
 * client is read from the forwarding header, walking it from the right (the
 * hop nearest to us) and stopping at the first hop that is not trusted
 * (LATCHKEY_TRUSTED_PROXIES): everything left of that hop was written by
 * someone we do not trust and may be made up. proxy-addr does the walk.
 *
 * The country comes from the proxy's geo header only when the socket's peer
 * is itself trusted: anyone else could send any country.
 */
import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { TrustedProxies } from "../config/trusted-proxies.ts";
import type { HeaderReader } from "./headers.ts";

/** The geo headers of the proxies that send one (Cloudflare, Vercel), in the order they are read. */
const COUNTRY_HEADERS = ["cf-ipcountry", "x-vercel-ip-country"];

type Trust = (address: string, hop: number) => boolean;

export class ClientAddresses {
  readonly #trust: Trust | null;
  readonly #header: TrustedProxies["header"];

  /** Throws, naming LATCHKEY_TRUSTED_PROXIES, when an entry is neither an address, a CIDR range nor a hop count. */
  constructor(trusted: TrustedProxies) {
    this.#header = trusted.header;
    this.#trust = compileTrust(trusted);
  }

  /** The client's address; `peer` is the socket's (undefined without a socket). */
  address(peer: string | undefined, headers: HeaderReader): string | null {
    if (!peer) return null;
    if (!this.#trust) return peer;
    const list = this.#header === "forwarded" ? forwardedFor(headers.get("forwarded")) : headers.get("x-forwarded-for");
    if (!list) return peer;
    const address = proxyaddr(nodeRequestLike(peer, list), this.#trust);
    // "unknown" or an obfuscated name (RFC 7239 §6) where an address should be: the client is not known.
    return address && /^[0-9a-f.:]+$/i.test(address) ? address : null;
  }

  /** ISO 3166-1 alpha-2 country of the client, or null when unknown or not from a trusted peer. */
  country(peer: string | undefined, headers: HeaderReader): string | null {
    if (!peer || !this.#trust || !this.#trust(peer, 0)) return null;
    for (const name of COUNTRY_HEADERS) {
      const value = headers.get(name);
      if (value !== null) return isoCountry(value.trim().toUpperCase());
    }
    return null;
  }
}

function compileTrust(trusted: TrustedProxies): Trust | null {
  const { proxies } = trusted;
  if (typeof proxies === "number") return proxies > 0 ? (_address, hop) => hop < proxies : null;
  if (proxies.length === 0) return null;
  try {
    return proxyaddr.compile(proxies);
  } catch (error) {
    throw new Error(
      `LATCHKEY_TRUSTED_PROXIES: ${(error as Error).message}. Give comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal), or a number of hops.`,
      { cause: error },
    );
  }
}

/** proxy-addr reads the peer and an X-Forwarded-For list from a Node request; these are the only parts it reads. */
function nodeRequestLike(peer: string, forwardedList: string): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: { "x-forwarded-for": forwardedList } } as unknown as IncomingMessage;
}

/**
 * The `for=` addresses of an RFC 7239 `Forwarded` header as an X-Forwarded-For list: one per
 * element, quotes, brackets and ports removed ("[2001:db8::1]:4711" → 2001:db8::1). An element
 * without `for=` stands for a hop that did not say, which must stop the walk: it becomes "unknown".
 */
export function forwardedFor(header: string | null): string | null {
  if (!header) return null;
  const hops: string[] = [];
  for (const element of splitOutsideQuotes(header, ",")) {
    let hop = "unknown";
    for (const pair of splitOutsideQuotes(element, ";")) {
      const eq = pair.indexOf("=");
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== "for") continue;
      hop = nodeAddress(
        pair
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, "$1"),
      );
    }
    hops.push(hop);
  }
  return hops.join(",");
}

function nodeAddress(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  // An IPv4 address may carry a port; a bare IPv6 address has several colons and no port.
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?$/.exec(value);
  return v4 ? v4[1]! : value;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === "\\" && quoted) i++;
    else if (ch === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const REGION_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/**
 * A country code as users store it, or null: "XX" (unknown) and "T1" (Tor) are what the proxies
 * send when they do not know, and a code the runtime's region data does not name is not a country.
 */
export function isoCountry(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "ZZ") return null;
  try {
    return REGION_NAMES.of(code) === code ? null : code;
  } catch {
    return null;
  }
}
