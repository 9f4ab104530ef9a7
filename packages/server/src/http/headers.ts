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
export class NodeHeaderReader implements HeaderReader {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * Request headers by their short name: `x-stack-<name>`, or the newer
 * `x-hexclave-<name>` alias; the x-stack form wins when both come.
 */
export function stackHeader(headers: HeaderReader, name: StackRequestHeader): string | null {
  const [stack, hexclave] = HEADER_NAMES[name];
  return headers.get(stack) ?? headers.get(hexclave);
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

export type StackRequestHeader = (typeof STACK_REQUEST_HEADERS)[number];

// Built once: a name concatenated per lookup would be a new string to hash every time.
const HEADER_NAMES = Object.fromEntries(STACK_REQUEST_HEADERS.map((h) => [h, [`x-stack-${h}`, `x-hexclave-${h}`] as const])) as Record<
  StackRequestHeader,
  readonly [string, string]
>;
