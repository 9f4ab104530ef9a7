/** Whose forwarding headers to believe (LATCHKEY_TRUSTED_PROXIES, LATCHKEY_FORWARDED_HEADER), checked at start. */
import proxyaddr from "proxy-addr";
import { StartupError } from "../process/startup-error.ts";

/**
 * LATCHKEY_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges (or proxy-addr's names
 * loopback, linklocal, uniquelocal), or a number of hops in front of the server; empty: none, the
 * socket's peer is the client. LATCHKEY_FORWARDED_HEADER names the header the proxies write:
 * x-forwarded-for (the default) or forwarded (RFC 7239). Only one is read: a proxy that writes one
 * passes the other through as the client sent it.
 */
export interface TrustedProxies {
  proxies: string[] | number;
  header: "x-forwarded-for" | "forwarded";
}

export function trustedProxiesFromEnv(env: NodeJS.ProcessEnv): TrustedProxies {
  const raw = (env.LATCHKEY_TRUSTED_PROXIES ?? "").trim();
  const header = (env.LATCHKEY_FORWARDED_HEADER ?? "x-forwarded-for").trim().toLowerCase();
  if (header !== "x-forwarded-for" && header !== "forwarded") {
    throw new StartupError(`LATCHKEY_FORWARDED_HEADER must be x-forwarded-for or forwarded, not ${JSON.stringify(header)}.`);
  }
  const proxies = /^\d+$/.test(raw)
    ? Number(raw)
    : raw
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
  // Checked here, before anything starts, by the same parser http/client-address.ts compiles them with.
  if (Array.isArray(proxies) && proxies.length > 0) {
    try {
      proxyaddr.compile(proxies);
    } catch (error) {
      throw new StartupError(
        `LATCHKEY_TRUSTED_PROXIES: ${(error as Error).message}. Give comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal), or a number of hops.`,
        { cause: error },
      );
    }
  }
  return { proxies, header };
}
