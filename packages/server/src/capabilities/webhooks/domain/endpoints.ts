/**
 * A project's webhook endpoints: created with a new secret (or one given), changed, disabled and enabled,
 * deleted with their attempts, and their secret rotated with a grace period for the previous one.
 */
import { and, desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import type { Services } from "../../../services.ts";
import { webhookEndpoints, type WebhookEndpointRow } from "../schema.ts";
import { openEndpointSecret, sealEndpointSecret } from "./endpoint-secrets.ts";
import { webhookId } from "./ids.ts";
import { newEndpointSecret } from "./signing.ts";

/** How long a rotated-out secret still signs deliveries (Svix keeps it for a day). */
export const PREVIOUS_SECRET_GRACE_MILLIS = 24 * 3600 * 1000;

export interface EndpointFields {
  url: string;
  description?: string;
  disabled?: boolean;
  filterTypes?: string[] | null;
  uid?: string | null;
  metadata?: Record<string, string>;
  rateLimit?: number | null;
}

export async function createEndpoint(
  services: Services,
  projectId: string,
  fields: EndpointFields,
  secret?: string,
): Promise<WebhookEndpointRow> {
  const now = services.clock.date();
  const [row] = await services.db
    .insert(webhookEndpoints)
    .values({
      id: webhookId("ep", now.getTime()),
      projectId,
      url: fields.url,
      description: fields.description ?? "",
      disabled: fields.disabled ?? false,
      disabledReason: fields.disabled ? "manual" : null,
      filterTypes: fields.filterTypes ?? null,
      uid: fields.uid ?? null,
      metadata: fields.metadata ?? {},
      rateLimit: fields.rateLimit ?? null,
      secretSealed: sealEndpointSecret(services.config.serverSecret, secret ?? newEndpointSecret()),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export function listEndpoints(db: DbOrTx, projectId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.projectId, projectId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

/** By id, or by the caller's uid (Svix accepts either where an endpoint is named). */
export async function findEndpoint(db: DbOrTx, projectId: string, idOrUid: string): Promise<WebhookEndpointRow | null> {
  const column = idOrUid.startsWith("ep_") ? webhookEndpoints.id : webhookEndpoints.uid;
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(column, idOrUid)));
  return row ?? null;
}

/** Replaces the fields given; enabling a disabled endpoint starts its failing streak afresh. */
export async function updateEndpoint(
  services: Services,
  endpoint: WebhookEndpointRow,
  fields: Partial<EndpointFields>,
): Promise<WebhookEndpointRow> {
  const disabled = fields.disabled ?? endpoint.disabled;
  const [row] = await services.db
    .update(webhookEndpoints)
    .set({
      ...(fields.url !== undefined && { url: fields.url }),
      ...(fields.description !== undefined && { description: fields.description }),
      ...(fields.filterTypes !== undefined && { filterTypes: fields.filterTypes }),
      ...(fields.uid !== undefined && { uid: fields.uid }),
      ...(fields.metadata !== undefined && { metadata: fields.metadata }),
      ...(fields.rateLimit !== undefined && { rateLimit: fields.rateLimit }),
      disabled,
      disabledReason: disabled ? (endpoint.disabled ? endpoint.disabledReason : "manual") : null,
      ...(!disabled && endpoint.disabled && { failingSince: null }),
      updatedAt: services.clock.date(),
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return row!;
}

export async function deleteEndpoint(db: Db, endpoint: WebhookEndpointRow): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
}

export function endpointSecret(services: Pick<Services, "config">, endpoint: WebhookEndpointRow): string {
  return openEndpointSecret(services.config.serverSecret, endpoint.secretSealed);
}

/** A new secret (or the one given); the old one keeps signing for PREVIOUS_SECRET_GRACE_MILLIS. */
export async function rotateEndpointSecret(services: Services, endpoint: WebhookEndpointRow, secret?: string): Promise<WebhookEndpointRow> {
  const now = services.clock.date();
  const [row] = await services.db
    .update(webhookEndpoints)
    .set({
      secretSealed: sealEndpointSecret(services.config.serverSecret, secret ?? newEndpointSecret()),
      previousSecretSealed: endpoint.secretSealed,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MILLIS),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return row!;
}
