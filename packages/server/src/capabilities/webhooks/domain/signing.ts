/**
 * Standard Webhooks signatures: HMAC-SHA256 over `<id>.<timestamp>.<body>` with the endpoint secret's bytes
 * (base64 after `whsec_`), sent as `v1,<base64>`; several, space-separated, while a rotated secret is still honoured.
 * The same values go under the `webhook-*` and the `svix-*` header names, so receivers written for either verify.
 */
import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** A new endpoint secret: 24 random bytes, as Svix makes them. */
export function newEndpointSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString("base64");
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The headers of one delivery, signed with every secret given (the current one first). */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => signature(secret, id, timestampSeconds, body)).join(" ");
  const timestamp = String(timestampSeconds);
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures,
    "svix-id": id,
    "svix-timestamp": timestamp,
    "svix-signature": signatures,
  };
}
