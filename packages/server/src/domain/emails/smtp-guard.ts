/**
 * A project's own SMTP settings are chosen by its admins, who on a shared
 * server are anyone who signs up. Left unchecked, "send a test e-mail to
 * 10.0.0.5:6379" would let them probe the server's private network. So the
 * host must resolve to public addresses only, and the connection goes to the
 * address checked (a second DNS answer cannot swap in a private one).
 * Operators who relay through a private host set LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS=true.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "../../lib/network-addresses.ts";

export class PrivateSmtpHostError extends Error {
  constructor(host: string) {
    super(`The SMTP host ${host} is on a private or local network, which this server does not connect to for projects.`);
    this.name = "PrivateSmtpHostError";
  }
}

/** One SMTP exchange went on too long in all (the SMTP timeouts only catch silence). */
export class SmtpDeadlineError extends Error {
  constructor(seconds: number) {
    super(`The SMTP exchange took longer than ${seconds} s.`);
    this.name = "SmtpDeadlineError";
  }
}

/** Every address `host` names (itself when it is an address). */
export async function resolveSmtpAddresses(host: string): Promise<string[]> {
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (addresses.length === 0) throw new Error(`The SMTP host ${host} does not resolve.`);
  return addresses;
}

/** The address to connect to for `host`: checked to be public unless private hosts are allowed. */
export async function resolveSmtpHost(host: string, allowPrivate: boolean): Promise<string> {
  const addresses = await resolveSmtpAddresses(host);
  if (!allowPrivate && addresses.some(isPrivateAddress)) throw new PrivateSmtpHostError(host);
  return addresses[0]!;
}

/**
 * What to tell an admin about a failed SMTP exchange: what went wrong, not the
 * remote server's own words (which would let anyone read other services' banners).
 */
export function smtpFailureSummary(error: unknown): string {
  if (error instanceof PrivateSmtpHostError || error instanceof SmtpDeadlineError) return error.message;
  const e = error as { code?: string; responseCode?: number; message?: string };
  switch (e.code) {
    case "ECONNREFUSED":
      return "The SMTP server refused the connection (ECONNREFUSED): check the host and port.";
    case "ENOTFOUND":
    case "EDNS":
      return "The SMTP host name does not resolve.";
    case "ETIMEDOUT":
    case "ETIMEOUT":
      return "The SMTP server did not answer in time.";
    case "EAUTH":
      return "The SMTP server rejected the username or password.";
    case "ETLS":
      return "The TLS connection to the SMTP server failed.";
    case "ECONNECTION":
    case "ESOCKET":
      return "The connection to the SMTP server failed or was closed.";
    case "EPROTOCOL":
      return "The server did not speak SMTP as expected.";
  }
  if (typeof e.responseCode === "number") return `The SMTP server refused the message (reply code ${e.responseCode}).`;
  return "Sending through the SMTP server failed.";
}
