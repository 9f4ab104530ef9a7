/**
 * Checking a webhook delivery on an app's server. Deliveries are signed per
 * Standard Webhooks, so the check is the `standardwebhooks` package's, not
 * code of ours; this adds what it leaves to the caller: the `svix-*` header
 * names (which the server sends too, for receivers written for Svix), header
 * objects of every shape, byte payloads, and a typed event.
 */
import type { WebhookEvent } from "@latchkey/shared/api/index";
import { Webhook, WebhookVerificationError as SignatureError } from "standardwebhooks";

/** The delivery is not one the server signed with this secret, or it is too old or too new to accept. */
export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookVerificationError";
  }
}

/** A request's headers: a fetch `Headers`, or a record such as Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const HEADERS = ["id", "timestamp", "signature"] as const;

/**
 * Checks a webhook delivery's signature and timestamp (within 5 minutes of
 * this machine's clock) and returns its event. `payload` is the request's raw
 * body, exactly as received: parsing and re-serialising the JSON changes the
 * bytes and fails the check. `secret` is the endpoint's signing secret
 * (`whsec_…`). The headers are `webhook-id`, `webhook-timestamp` and
 * `webhook-signature`, or the same under `svix-*`.
 *
 * Event types added in later server versions arrive too, so a `switch` on
 * `type` needs a `default`.
 *
 * @throws WebhookVerificationError when a header is missing, the signature
 * does not match, or the timestamp is outside the tolerance.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (cause) {
    throw new TypeError("The webhook secret is not an endpoint's signing secret (whsec_ followed by base64).", { cause });
  }
  const named: Record<string, string> = {};
  for (const name of HEADERS) named[`webhook-${name}`] = headerOf(headers, name);
  // The package takes a string or a Node Buffer; bytes of either kind are the UTF-8 JSON the server signed.
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  try {
    webhook.verify(body, named, { jsonParse: false });
  } catch (cause) {
    if (cause instanceof SignatureError)
      throw new WebhookVerificationError(`Webhook not verified: ${lowerFirst(cause.message)}.`, { cause });
    throw cause;
  }
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch (cause) {
    throw new WebhookVerificationError("Webhook verified, but its body is not JSON.", { cause });
  }
  if (typeof event !== "object" || event === null || typeof (event as { type?: unknown }).type !== "string" || !("data" in event)) {
    throw new WebhookVerificationError('Webhook verified, but its body is not an event ({"type", "data"}).');
  }
  return event as WebhookEvent;
}

/** One header, under `webhook-*` or else `svix-*`. */
function headerOf(headers: WebhookHeaders, name: (typeof HEADERS)[number]): string {
  for (const prefix of ["webhook", "svix"]) {
    const value = valueOf(headers, `${prefix}-${name}`);
    if (value) return value;
  }
  throw new WebhookVerificationError(`Webhook not verified: the webhook-${name} header (or svix-${name}) is missing.`);
}

function valueOf(headers: WebhookHeaders, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((key) => key.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  if (Array.isArray(value)) {
    // Repeated signature headers each hold candidate signatures; a repeated id or timestamp is ambiguous.
    if (name.endsWith("-signature")) return value.length > 0 ? value.join(" ") : undefined;
    if (value.length > 1) throw new WebhookVerificationError(`Webhook not verified: the ${name} header is repeated.`);
    return value[0];
  }
  return value;
}

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Headers).get === "function" && typeof (headers as Headers).has === "function";
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
