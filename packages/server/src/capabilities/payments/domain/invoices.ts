/**
 * The invoices of customers' subscriptions: kept from Stripe's `invoice.*`
 * events (each applied once, in its delivery's transaction:
 * stripe-event-handlers.ts) and listed from here, newest first, with no call
 * to Stripe. An invoice belongs to the customer its subscription was sold
 * to (the subscription's checkout); an invoice of no subscription of ours
 * is not kept. Stripe may deliver an invoice's events out of order, so an
 * event older than the one a row was written from changes nothing.
 */
import {
  INVOICE_STATUSES,
  StatusError,
  UUID_PATTERN,
  type CustomerInvoiceJson,
  type CustomerInvoicesListJson,
  type InvoiceStatus,
} from "@latchkey/shared";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import { paymentStripeCheckouts, type PaymentStripeAccountRow } from "../account-schema.ts";
import { paymentStripeInvoices, type PaymentStripeInvoiceRow } from "../billing-schema.ts";
import type { Customer } from "./customers.ts";

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/** Where an event is applied: its delivery's transaction, for the project of the account it came for. */
export interface InvoiceEventContext {
  tx: EventTx;
  tenancy: Tenancy;
  account: PaymentStripeAccountRow;
}

/** Writes what an `invoice.*` event says of a subscription's invoice, unless a newer event already did. */
export async function recordStripeInvoice(ctx: InvoiceEventContext, event: { created: number; data: { object: Stripe.Invoice } }) {
  const invoice = event.data.object;
  const parent = invoice.parent?.subscription_details?.subscription;
  const subscriptionId = typeof parent === "string" ? parent : parent?.id;
  if (!invoice.id || !subscriptionId) return;
  const t = paymentStripeCheckouts;
  const [sold] = await ctx.tx
    .select({ customerType: t.customerType, customerId: t.customerId })
    .from(t)
    .where(and(inTenancy(t, ctx.tenancy), eq(t.stripeId, subscriptionId)));
  if (!sold) return;
  const state = {
    status: invoice.status ?? null,
    amountTotal: invoice.total ?? 0,
    currency: invoice.currency ?? null,
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    eventAt: fromSeconds(event.created),
  };
  const i = paymentStripeInvoices;
  await ctx.tx
    .insert(i)
    .values({
      ...ctx.tenancy,
      stripeAccountId: ctx.account.stripeAccountId,
      stripeInvoiceId: invoice.id,
      stripeSubscriptionId: subscriptionId,
      customerType: sold.customerType,
      customerId: sold.customerId,
      // An invoice that leaves out when it was made (an older API version's event) counts from its event.
      createdAt: fromSeconds(Number.isFinite(invoice.created) ? invoice.created : event.created),
      ...state,
    })
    .onConflictDoUpdate({
      target: [i.projectId, i.branchId, i.stripeInvoiceId],
      set: state,
      // Within one second an invoice that was paid or voided does not go back to draft or open.
      setWhere: sql`${i.eventAt} < excluded.event_at OR (${i.eventAt} = excluded.event_at AND NOT (
        ${i.status} IN ('paid', 'void') AND excluded.status IN ('draft', 'open')))`,
    });
  // Kept whatever the event's age: which payment paid an invoice does not change.
  const intent = paidIntentOf(invoice);
  if (intent) await keepPaidIntent(ctx, invoice.id, intent);
}

const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/**
 * The payment intent that paid the invoice, when the event carries the invoice's payments (Stripe includes them
 * when asked; the API versions that put `payment_intent` on the invoice itself are older than the one we use).
 */
function paidIntentOf(invoice: Stripe.Invoice): string | null {
  for (const paid of invoice.payments?.data ?? []) {
    const intent = paid.status === "paid" ? idOf(paid.payment.payment_intent) : null;
    if (intent) return intent;
  }
  return null;
}

/**
 * Keeps the payment intent that paid one of the account's invoices on its row (the first one told: an invoice is
 * paid once); answers the row's subscription, or null when no such invoice is kept.
 */
export async function keepPaidIntent(ctx: InvoiceEventContext, stripeInvoiceId: string, intent: string): Promise<string | null> {
  const i = paymentStripeInvoices;
  const ofInvoice = and(
    inTenancy(i, ctx.tenancy),
    eq(i.stripeAccountId, ctx.account.stripeAccountId),
    eq(i.stripeInvoiceId, stripeInvoiceId),
  );
  await ctx.tx
    .update(i)
    .set({ stripePaymentIntentId: intent })
    .where(and(ofInvoice, isNull(i.stripePaymentIntentId)));
  const [row] = await ctx.tx.select({ subscriptionId: i.stripeSubscriptionId }).from(i).where(ofInvoice);
  return row?.subscriptionId ?? null;
}

/** An invoice's payment went through (`invoice_payment.paid`): its payment intent is kept with the invoice. */
export async function recordInvoicePayment(ctx: InvoiceEventContext, event: { data: { object: Stripe.InvoicePayment } }) {
  const payment = event.data.object;
  const invoiceId = idOf(payment.invoice);
  const intent = idOf(payment.payment.payment_intent);
  if (payment.status === "paid" && invoiceId && intent) await keepPaidIntent(ctx, invoiceId, intent);
}

/** The subscription of the invoice a payment intent is known to have paid, if any. */
export async function subscriptionPaidBy(db: DbOrTx, scope: Tenancy, intent: string): Promise<string | null> {
  const i = paymentStripeInvoices;
  const [row] = await db
    .select({ subscriptionId: i.stripeSubscriptionId })
    .from(i)
    .where(and(inTenancy(i, scope), eq(i.stripePaymentIntentId, intent)))
    .limit(1);
  return row?.subscriptionId ?? null;
}

const statusOf = (status: string | null): InvoiceStatus | null =>
  (INVOICE_STATUSES as readonly string[]).includes(status ?? "") ? (status as InvoiceStatus) : null;

function invoiceJson(row: PaymentStripeInvoiceRow): CustomerInvoiceJson {
  return {
    created_at_millis: row.createdAt.getTime(),
    status: statusOf(row.status),
    amount_total: row.amountTotal,
    hosted_invoice_url: row.hostedInvoiceUrl,
  };
}

/** A page of the customer's invoices, newest first; `cursor` is the last invoice of the page before. */
export async function listCustomerInvoices(
  db: DbOrTx,
  scope: Tenancy,
  customer: Customer,
  page: { cursor: string | undefined; limit: number },
): Promise<CustomerInvoicesListJson> {
  const i = paymentStripeInvoices;
  const ofCustomer = and(inTenancy(i, scope), eq(i.customerType, customer.type), eq(i.customerId, customer.id));
  let after = undefined;
  if (page.cursor !== undefined) {
    const [pivot] = UUID_PATTERN.test(page.cursor)
      ? await db
          .select({ id: i.id, createdAt: i.createdAt })
          .from(i)
          .where(and(ofCustomer, eq(i.id, page.cursor)))
      : [];
    if (!pivot) throw new StatusError(400, "Invalid cursor");
    after = or(lt(i.createdAt, pivot.createdAt), and(eq(i.createdAt, pivot.createdAt), lt(i.id, pivot.id)));
  }
  const rows = await db
    .select()
    .from(i)
    .where(and(ofCustomer, after))
    .orderBy(desc(i.createdAt), desc(i.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  return {
    items: shown.map(invoiceJson),
    is_paginated: true,
    pagination: { next_cursor: rows.length > page.limit ? shown.at(-1)!.id : null },
  };
}
