/**
 * Cancelling a customer's subscription from their page, after a confirmation that says what follows: the customer
 * keeps the product until its period ends, and a subscription paid through Stripe stops being charged there.
 */
import type { CustomerProduct } from "@latchkey/js";
import { useAdminApp } from "../lib/owned-projects.tsx";
import { useAction } from "../lib/use-action.ts";
import type { PaymentsCustomer } from "./customer-products-card.tsx";
import { Dialog, FormActions } from "./dialog.tsx";
import { ActionStatus } from "./states.tsx";

export function CancelSubscriptionDialog({
  customer,
  product,
  onDone,
}: {
  customer: PaymentsCustomer;
  /** The subscription to cancel; null: the dialog is closed. */
  product: CustomerProduct | null;
  onDone: (cancelledName: string | null) => void;
}) {
  return (
    <Dialog open={product !== null} title="Cancel a subscription" onClose={() => onDone(null)}>
      {product ? <CancelForm customer={customer} product={product} onDone={onDone} /> : null}
    </Dialog>
  );
}

function CancelForm({
  customer,
  product,
  onDone,
}: {
  customer: PaymentsCustomer;
  product: CustomerProduct;
  onDone: (cancelledName: string | null) => void;
}) {
  const app = useAdminApp();
  const end = product.subscription?.currentPeriodEnd ?? null;
  const action = useAction(async () => {
    const whose = customer.type === "user" ? { userId: customer.id } : { teamId: customer.id };
    const subscriptionId = product.subscription?.subscriptionId ?? undefined;
    await app.cancelSubscription({ ...whose, productId: product.id!, ...(subscriptionId ? { subscriptionId } : {}) });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone(product.displayName));
      }}
    >
      <p>
        Cancel this {customer.type}&apos;s {product.displayName} subscription? It will not renew: the {customer.type} keeps it
        {end ? ` until ${end.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}` : " until its period ends"}, with its
        included items, and then it ends. A subscription paid through Stripe is cancelled there too.
      </p>
      <ActionStatus error={action.error} />
      <FormActions onCancel={() => onDone(null)} pending={action.pending} submitLabel="Cancel subscription" pendingLabel="Cancelling…" />
    </form>
  );
}
