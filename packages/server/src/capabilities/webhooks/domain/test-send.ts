/**
 * The dashboard's test send: a `stack.test` message, like any other in the log, that goes to every endpoint of
 * the project wanting it; the endpoint named is sent it at once, and the answer says how that went, so the owner
 * sees at the click whether the receiver works (the others get theirs from the job runner).
 */
import { TEST_WEBHOOK_MESSAGE, type SendTestWebhookResultJson } from "@latchkey/shared";
import { and, eq, ne } from "drizzle-orm";
import type { Services } from "../../../services.ts";
import { webhookEndpoints } from "../schema.ts";
import { attemptDelivery } from "./deliver.ts";
import { findEndpoint } from "./endpoints.ts";
import { createMessage } from "./messages.ts";

export const TEST_ENDPOINT_NOT_FOUND = "Endpoint not found. Make sure it still exists.";
export const TEST_NOT_DELIVERED = "Webhook not delivered. Make sure the endpoint is configured correctly.";

export async function sendTestWebhook(services: Services, projectId: string, endpointId: string): Promise<SendTestWebhookResultJson> {
  const endpoint = await findEndpoint(services.db, projectId, endpointId);
  if (!endpoint) return { success: false, error_message: TEST_ENDPOINT_NOT_FOUND };
  const type = "stack.test";
  const payload = { type, data: { message: TEST_WEBHOOK_MESSAGE, endpointUrl: endpoint.url } };
  const message = await services.events.transaction(services.db, async (tx) => {
    const others = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.disabled, false), ne(webhookEndpoints.id, endpoint.id)));
    return createMessage(services, tx, projectId, type, payload, others);
  });
  const outcome = await attemptDelivery(services, message, endpoint, true);
  if (outcome.succeeded) return { success: true };
  // No answer: what went wrong, in the words of the log; an answer that was not a 2xx: the fixed sentence.
  return { success: false, error_message: outcome.statusCode === 0 ? outcome.response : TEST_NOT_DELIVERED };
}
