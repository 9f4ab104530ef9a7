/**
 * Endpoint secrets are sealed with the server secret at rest (they are shown to owners again and sign every
 * delivery, so a digest would not do). After a rotation the previous secret still signs, beside the new one,
 * until its grace period ends: receivers switch over without rejecting a message.
 */
import { decryptWithSecret, encryptWithSecret } from "../../../lib/secrets.ts";
import type { Services } from "../../../services.ts";
import type { WebhookEndpointRow } from "../schema.ts";

const SECRET_PURPOSE = "webhook-endpoint-secret";

export function sealEndpointSecret(serverSecret: string, secret: string): string {
  return encryptWithSecret(serverSecret, SECRET_PURPOSE, secret);
}

export function openEndpointSecret(serverSecret: string, sealed: string): string {
  return decryptWithSecret(serverSecret, SECRET_PURPOSE, sealed);
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its grace period. */
export function signingSecrets(services: Pick<Services, "config">, endpoint: WebhookEndpointRow, now: Date): string[] {
  const secrets = [openEndpointSecret(services.config.serverSecret, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openEndpointSecret(services.config.serverSecret, endpoint.previousSecretSealed));
  }
  return secrets;
}
