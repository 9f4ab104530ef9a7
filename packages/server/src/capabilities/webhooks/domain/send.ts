/**
 * One HTTP POST of a webhook: to public addresses only, unless the operator allows private ones
 * (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS), and to the very address that was checked (the lookup is the check, so a
 * second DNS answer cannot swap in a private address). Redirects are not followed: a receiver answers for itself.
 * Whatever happens is an outcome, never a throw: the caller records it as an attempt.
 *
 * Connections are kept open between deliveries, so a busy endpoint costs a TCP and TLS handshake once, not per
 * message. The pools are our own, one per protocol and address rule, so a connection opened where private addresses
 * were allowed is never reused where they are not. A kept connection the receiver closed just as it was reused fails
 * before any answer; that send is made once more on a new connection, since nothing reached the receiver's app.
 */
import { lookup } from "node:dns";
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { isPrivateAddress } from "../../../lib/network-addresses.ts";

/** How long a receiver has to answer, from the connection to the last byte (Svix allows 15 s). */
export const WEBHOOK_TIMEOUT_MILLIS = 15_000;
/** How much of a receiver's answer the message log keeps. */
export const WEBHOOK_RESPONSE_KEPT_CHARS = 1000;

/**
 * How long a kept connection may sit unused. Below the 5 s a Node receiver keeps an idle connection by default,
 * so the pool lets go first and a reused connection is rarely one the receiver is closing.
 */
const IDLE_CONNECTION_MILLIS = 4_000;

const pools = new Map<string, HttpAgent>();

function pool(protocol: "http:" | "https:", allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = pools.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MILLIS, scheduling: "lifo" as const };
    agent = protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
    pools.set(key, agent);
  }
  return agent;
}

export interface SendOutcome {
  /** 0 when no answer came. */
  statusCode: number;
  /** The answer's body (cut), or what went wrong when none came. */
  response: string;
  durationMs: number;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMillis?: number;
}

class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`The endpoint's host ${host} is on a private or local network, which this server does not send webhooks to.`);
  }
}

/**
 * The host of `url` when the URL alone shows it is private (an address in a private range, or a name under
 * `localhost`, which resolves to loopback): such an endpoint is refused when it is made, not only at each send.
 * Other names are checked when they are looked up, at each send.
 */
export function evidentlyPrivateHost(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
  if (isIP(host)) return isPrivateAddress(host) ? host : null;
  return host === "localhost" || host.endsWith(".localhost") ? host : null;
}

/** Resolves as Node would, refusing a private answer. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as { address: string; family: number }[];
      if (list.length === 0) return callback(new Error(`${hostname} does not resolve.`), "", 0);
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) return callback(new PrivateAddressError(hostname), "", 0);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ statusCode: 0, response: "The endpoint URL is not valid.", durationMs: 0 });
    }
    const host = target.hostname.replace(/^\[|\]$/g, "");
    // An address in the URL is not looked up: it is checked here.
    if (isIP(host) && !options.allowPrivate && isPrivateAddress(host)) {
      return resolve({ statusCode: 0, response: new PrivateAddressError(host).message, durationMs: 0 });
    }
    const protocol = target.protocol === "https:" ? "https:" : "http:";
    const requestOptions: RequestOptions = {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "Latchkey-Webhooks/1.0",
        ...headers,
      },
      lookup: guardedLookup(options.allowPrivate),
      timeout: options.timeoutMillis ?? WEBHOOK_TIMEOUT_MILLIS,
      agent: pool(protocol, options.allowPrivate),
    };
    const send = protocol === "https:" ? httpsRequest : httpRequest;
    const attempt = (retried: boolean) => {
      const req = send(target, requestOptions, (res) => readAnswer(res, (outcome) => resolve({ ...outcome, durationMs: elapsed() })));
      const deadline = setTimeout(
        () => req.destroy(new Error("The endpoint did not answer in time.")),
        options.timeoutMillis ?? WEBHOOK_TIMEOUT_MILLIS,
      );
      req.on("close", () => clearTimeout(deadline));
      req.on("timeout", () => req.destroy(new Error("The endpoint did not answer in time.")));
      req.on("error", (error) => {
        if (!retried && closedOnReuse(req, error)) return attempt(true);
        resolve({ statusCode: 0, response: failureText(error), durationMs: elapsed() });
      });
      req.end(body);
    };
    attempt(false);
  });
}

/** A kept connection the receiver had closed: the request failed on it before any answer began. */
function closedOnReuse(req: ClientRequest, error: Error & { code?: string }): boolean {
  return req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
}

/** Reads the whole answer (a connection goes back to the pool only once it is read), keeping its start. */
function readAnswer(res: IncomingMessage, done: (outcome: Omit<SendOutcome, "durationMs">) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  res.on("data", (chunk: Buffer) => {
    // Enough bytes for the kept characters (UTF-8: at most 4 each); the rest is read and dropped.
    if (kept < WEBHOOK_RESPONSE_KEPT_CHARS * 4) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  });
  res.on("end", () =>
    done({ statusCode: res.statusCode ?? 0, response: Buffer.concat(chunks).toString("utf8").slice(0, WEBHOOK_RESPONSE_KEPT_CHARS) }),
  );
  res.on("error", (error) => done({ statusCode: res.statusCode ?? 0, response: failureText(error) }));
}

/** What the log says when no answer came: what went wrong, in words an owner can act on. */
function failureText(error: Error & { code?: string }): string {
  if (error instanceof PrivateAddressError) return error.message;
  switch (error.code) {
    case "ECONNREFUSED":
      return "The endpoint refused the connection.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The endpoint's host name does not resolve.";
    case "ECONNRESET":
      return "The endpoint closed the connection before answering.";
  }
  if (error.code?.startsWith("ERR_TLS") || error.code?.includes("CERT")) return "The TLS connection to the endpoint failed.";
  return error.message;
}
