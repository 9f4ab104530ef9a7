/**
 * Stripe's webhook deliveries. An event is believed only when its
 * Stripe-Signature header signs the body exactly as sent, under the
 * endpoint's secret (the platform's for Connect events, a project's own for
 * its own account's), within Stripe's five minutes of the server's clock. It
 * is applied at most once per project: the event's id is recorded in the
 * transaction that applies it (payment_stripe_events' key), so a second
 * delivery of it (Stripe delivers at least once) finds the id and does
 * nothing; two at the same time queue on the key, and the second finds it too.
 */
import { DEFAULT_BRANCH_ID, StatusError } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { DbOrTx } from "../../../db/connect.ts";
import { sweepOlderThan } from "../../../db/sweep.ts";
import { tenancyOf, type Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import { paymentStripeAccounts, paymentStripeEvents, type PaymentStripeAccountRow } from "../account-schema.ts";
import { ownSecretsOf, stripeAccountOf } from "./stripe-account.ts";
import { dispatchStripeEvent, handlesStripeEvent } from "./stripe-event-handlers.ts";
import { stripeRefundLookups } from "./stripe-refunds.ts";

const INVALID_SIGNATURE = "Invalid stripe-signature header";

/**
 * How long an applied event's id is kept: Stripe retries a delivery for three days and its dashboard resends
 * events up to 30 days old; an id older than this is not delivered again.
 */
export const STRIPE_EVENT_IDS_KEPT_MILLIS = 90 * 24 * 60 * 60 * 1000;
const SWEEP_ROWS = 500;

/** Housekeeping: forgets the ids of events applied longer ago than STRIPE_EVENT_IDS_KEPT_MILLIS. */
export async function forgetOldStripeEvents(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - STRIPE_EVENT_IDS_KEPT_MILLIS);
  return sweepOlderThan(db, paymentStripeEvents, paymentStripeEvents.receivedAt, cutoff, SWEEP_ROWS);
}

/** What became of a delivery. */
export type StripeDelivery = "applied" | "duplicate" | "ignored";

function verified(services: Services, payload: Uint8Array | undefined, signature: string | null, secret: string | null): Stripe.Event {
  const event = payload && signature && secret ? services.stripe.verifiedEvent(payload, signature, secret, services.clock.now()) : null;
  if (!event) throw new StatusError(400, INVALID_SIGNATURE);
  return event;
}

/** An event about one of the platform's connected accounts, at the platform's endpoint. */
export async function receivePlatformStripeEvent(
  services: Services,
  payload: Uint8Array | undefined,
  signature: string | null,
): Promise<StripeDelivery> {
  const event = verified(services, payload, signature, services.stripe.settings.webhookSecret);
  if (!event.account) return "ignored";
  // tenancy: a Connect event names its connected account, which is how its project is found
  const [account] = await services.db
    .select()
    .from(paymentStripeAccounts)
    .where(and(eq(paymentStripeAccounts.kind, "connect"), eq(paymentStripeAccounts.stripeAccountId, event.account)));
  if (!account) {
    services.logger.info({ eventId: event.id, type: event.type }, "Stripe event for an account no project has: acknowledged");
    return "ignored";
  }
  return applyStripeEvent(services, account, event);
}

/** An event about a project's own Stripe account, at the project's endpoint. */
export async function receiveProjectStripeEvent(
  services: Services,
  projectId: string,
  payload: Uint8Array | undefined,
  signature: string | null,
): Promise<StripeDelivery> {
  const account = await stripeAccountOf(services.db, { projectId, branchId: DEFAULT_BRANCH_ID });
  // A project without its own key has no secret to check against: as unverifiable as a wrong signature.
  const secret = account?.kind === "own_key" ? (await ownSecretsOf(services, account)).webhookSecret : null;
  const event = verified(services, payload, signature, secret);
  return applyStripeEvent(services, account!, event);
}

async function applyStripeEvent(services: Services, account: PaymentStripeAccountRow, event: Stripe.Event): Promise<StripeDelivery> {
  if (!handlesStripeEvent(event.type)) return "ignored";
  const tenancy: Tenancy = tenancyOf(account);
  const lookups = await stripeRefundLookups(services, account, tenancy, event);
  return services.events.transaction(services.db, async (tx) => {
    const fresh = await tx
      .insert(paymentStripeEvents)
      .values({ ...tenancy, eventId: event.id, type: event.type, receivedAt: services.clock.date() })
      .onConflictDoNothing()
      .returning({ eventId: paymentStripeEvents.eventId });
    if (fresh.length === 0) return "duplicate";
    await dispatchStripeEvent({ services, tx, tenancy, account, lookups }, event);
    return "applied";
  });
}
