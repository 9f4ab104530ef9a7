/**
 * Account settings' billing: the card the user's subscriptions are charged
 * to (and saving another, payment-method-dialog.tsx), what they own (a renewing plan can be cancelled: it stays until its
 * period ends, then listed without renewal) and their latest invoices. Shown only to a user with
 * something to bill: a Stripe customer, a product or an invoice.
 */
import type { CurrentUser, CustomerBilling, CustomerInvoicesList, CustomerProductsList } from "@latchkey/js";
import { useCallback, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, ConfirmedAction, Section, Subsection, useAction, useRead } from "./parts.tsx";
import { PaymentMethodDialog } from "./payment-method-dialog.tsx";

/** How many invoices the section shows (the newest). */
const INVOICES_SHOWN = 10;

interface Billing {
  billing: CustomerBilling;
  products: CustomerProductsList;
  invoices: CustomerInvoicesList;
}

const INVOICE_STATUS: Record<string, string> = { draft: "Draft", open: "Due", paid: "Paid", uncollectible: "Uncollectible", void: "Void" };

/** Minor units as dollars ("$12.50"): the products' prices are in USD. */
const dollars = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

export function BillingSection({ user }: { user: CurrentUser }) {
  const app = useStackApp();
  const { value, error, reload } = useRead(
    useCallback(async (): Promise<Billing> => {
      const [billing, products, invoices] = await Promise.all([
        user.getBilling(),
        user.listProducts(),
        user.listInvoices({ limit: INVOICES_SHOWN }),
      ]);
      return { billing, products, invoices };
    }, [user]),
  );
  const [updating, setUpdating] = useState(false);
  const cancel = useAction(async (productId: string) => {
    await app.cancelSubscription({ productId });
    reload();
  });
  if (error) {
    return (
      <Section title="Billing">
        <Alert>{error}</Alert>
      </Section>
    );
  }
  if (!value || (!value.billing.hasCustomer && value.products.length === 0 && value.invoices.length === 0)) return null;
  const card = value.billing.defaultPaymentMethod;
  return (
    <Section title="Billing">
      <Alert>{cancel.error}</Alert>
      <Subsection title="Payment method">
        <p className={card ? undefined : "lk-muted"}>
          {card
            ? [
                card.brand ? card.brand.toUpperCase() : "Card",
                card.last4 ? `•••• ${card.last4}` : null,
                card.exp_month && card.exp_year ? `expires ${card.exp_month}/${card.exp_year}` : null,
              ]
                .filter(Boolean)
                .join(" · ")
            : "No payment method saved."}
        </p>
        <div className="lk-row">
          <button className="lk-button lk-button-secondary" type="button" onClick={() => setUpdating(true)}>
            Update payment method
          </button>
        </div>
        {updating ? (
          <PaymentMethodDialog
            owner={user}
            onSaved={() => {
              setUpdating(false);
              reload();
            }}
            onClose={() => setUpdating(false)}
          />
        ) : null}
      </Subsection>
      <Subsection title="Plans">
        {value.products.length === 0 ? (
          <p className="lk-muted">No active plans.</p>
        ) : (
          <ul className="lk-list">
            {value.products.map((plan, index) => {
              const subscription = plan.subscription;
              const end = subscription?.currentPeriodEnd?.toLocaleDateString();
              return (
                <li key={index} className="lk-list-item">
                  <span>
                    {plan.displayName}
                    {subscription && end ? (subscription.cancelAtPeriodEnd ? ` · ends ${end}` : ` · renews ${end}`) : ""}
                  </span>
                  {plan.id !== null && subscription?.isCancelable && !subscription.cancelAtPeriodEnd ? (
                    <ConfirmedAction
                      label="Cancel…"
                      ariaLabel={`Cancel ${plan.displayName}`}
                      confirmLabel={`Cancel ${plan.displayName}`}
                      busy={cancel.busy}
                      onConfirm={() => void cancel.run(plan.id!)}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </Subsection>
      <Subsection title="Invoices">
        {value.invoices.length === 0 ? (
          <p className="lk-muted">No invoices yet.</p>
        ) : (
          <ul className="lk-list">
            {value.invoices.map((invoice, index) => (
              <li key={index} className="lk-list-item">
                <span>
                  {invoice.createdAt.toLocaleDateString()} · {dollars(invoice.amountTotal)} ·{" "}
                  {invoice.status ? INVOICE_STATUS[invoice.status] : "Unknown"}
                </span>
                {invoice.hostedInvoiceUrl ? (
                  <a className="lk-link" href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
                    View
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Subsection>
    </Section>
  );
}
