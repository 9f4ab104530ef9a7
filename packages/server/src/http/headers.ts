import type { IncomingHttpHeaders } from "node:http";

/** What the pipeline needs of request headers: lookup by lower-case name. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Under the Node adapter, Node has already parsed the headers into a plain
 * object; reading it directly avoids building a web `Headers` per request,
 * which costs more than authenticating it.
 */
export function nodeHeaderReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/**
 * Request headers by their short name: `x-stack-<name>`, or the newer
 * `x-hexclave-<name>` alias (WIRE §1.1); the x-stack form wins when both come.
 */
export function stackHeader(headers: HeaderReader, name: string): string | null {
  return headers.get(`x-stack-${name}`) ?? headers.get(`x-hexclave-${name}`);
}

export const STACK_REQUEST_HEADERS = [
  "access-type",
  "project-id",
  "branch-id",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "admin-access-token",
  "access-token",
  "refresh-token",
  "allow-anonymous-user",
  "allow-restricted-user",
  "client-version",
  "random-nonce",
  "workflow-token",
  "override-error-status",
] as const;
