/**
 * Webhooks, built in: what happens to a project's users, teams, memberships, permissions, sessions, invitations
 * and API keys is sent to the URLs its owners register, signed per Standard Webhooks (with the `svix-*` header
 * names too, so receivers written for Svix verify unchanged). Nothing is lost: the change's events wait in the
 * outbox, pending, until the fan-out writes their messages (domain/fan-out.ts), each with a
 * delivery job per endpoint that the job runner runs and retries on Svix's schedule (domain/deliver.ts); an
 * endpoint failing for five days is disabled and its owners told. The log is kept for 90 days (domain/retention.ts). Endpoints must be on the public internet
 * unless the operator sets LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS=true (domain/send.ts).
 *
 * Owners manage endpoints through a Svix-compatible API (svix/app.ts, served under /svix with a token of
 * POST /webhooks/svix-token), so the `svix` client and the tools built on it work against this server.
 *
 * Outside this folder: the job kind's payload in jobs/kinds.ts; the address ranges in lib/network-addresses.ts;
 * the wire schemas of svix-token and send-test-webhook in @latchkey/shared (api/webhooks.ts); the mount of the
 * Svix-compatible API in app.ts.
 */
import { webhooksEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { webhookDeliveryJob } from "./domain/deliver.ts";
import { WEBHOOK_EVENT_TYPES } from "../../events/domain-events.ts";
import { pendingForWebhooks, webhookFanOut } from "./domain/fan-out.ts";
import { deleteOldWebhookMessages } from "./domain/retention.ts";
import { webhookAttempts, webhookEndpoints, webhookMessages } from "./schema.ts";

export default defineCapability({
  name: "webhooks",
  contract: webhooksEndpoints,
  tables: [webhookEndpoints, webhookMessages, webhookAttempts],
  events: {
    subscribes: [
      {
        types: WEBHOOK_EVENT_TYPES,
        outboxPending: pendingForWebhooks,
        // Pending or not (the insert decided), the fan-out looks soon; a burst of commits shares one look.
        handle: (services) => services.jobs.kickSoon(),
      },
    ],
  },
  configKeys: [],
  housekeeping: [{ name: "oldWebhookMessages", sweep: deleteOldWebhookMessages }],
  jobs: [webhookDeliveryJob],
  jobFeeders: [webhookFanOut],
});
