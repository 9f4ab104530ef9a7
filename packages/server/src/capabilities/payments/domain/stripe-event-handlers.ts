/**
 * What the server does with each type of Stripe event, in one table: a new
 * handler is one more entry under its event type (several may share a type,
 * run in order). `dispatchStripeEvent` runs them in the transaction that
 * records the event (stripe-webhooks.ts), so an event's effects and its
 * "applied" mark commit together: a failing handler rolls both back, and
 * Stripe's next delivery tries again.
 */
import type Stripe from "stripe";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import type { PaymentStripeAccountRow } from "../account-schema.ts";
import { storeAccountState } from "./stripe-account.ts";

export interface StripeEventContext {
  services: Services;
  /** The transaction that records the event as applied. */
  tx: EventTx;
  tenancy: Tenancy;
  /** The project's Stripe account the event came for. */
  account: PaymentStripeAccountRow;
}

export type StripeEventOf<T extends Stripe.Event.Type> = Extract<Stripe.Event, { type: T }>;
export type StripeEventHandler<T extends Stripe.Event.Type> = (ctx: StripeEventContext, event: StripeEventOf<T>) => Promise<void>;
export type StripeEventHandlers = { readonly [T in Stripe.Event.Type]?: readonly StripeEventHandler<T>[] };

/** The account changed (onboarding went on, Stripe enabled or paused charges or payouts): keep its new state. */
const refreshAccountState: StripeEventHandler<"account.updated"> = async (ctx, event) => {
  const account = event.data.object;
  await storeAccountState(
    ctx.tx,
    ctx.tenancy,
    {
      id: account.id,
      chargesEnabled: account.charges_enabled ?? false,
      detailsSubmitted: account.details_submitted ?? false,
      payoutsEnabled: account.payouts_enabled ?? false,
    },
    ctx.services.clock.date(),
  );
};

export const stripeEventHandlers: StripeEventHandlers = {
  "account.updated": [refreshAccountState],
};

/** Whether any handler wants events of this type (the others are acknowledged and not recorded). */
export function handlesStripeEvent(type: string): boolean {
  return (stripeEventHandlers[type as Stripe.Event.Type]?.length ?? 0) > 0;
}

/** Runs the handlers of the event's type, in order. */
export async function dispatchStripeEvent(ctx: StripeEventContext, event: Stripe.Event): Promise<void> {
  const handlers = (stripeEventHandlers[event.type] ?? []) as readonly StripeEventHandler<typeof event.type>[];
  for (const handler of handlers) await handler(ctx, event);
}
