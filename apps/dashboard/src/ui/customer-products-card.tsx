/**
 * A user's or a team's products (bought or granted), each with its quantity
 * and when it renews, and a grant by hand: a product of the
 * catalogue for that customer type, a quantity when it is stackable. A grant
 * takes no payment; the customer owns the product as if bought, with its
 * included items. A running subscription can be cancelled: it is owned until
 * its period ends (cancel-subscription.tsx).
 */
import type { CustomerProduct } from "@latchkey/js";
import type { CustomerType, RenderedConfig } from "@latchkey/shared";
import { useConfig } from "@latchkey/react";
import { useState } from "react";
import { Link } from "react-router";
import { useAdminApp, useCurrentProject } from "../lib/owned-projects.tsx";
import { useAction } from "../lib/use-action.ts";
import { durationText } from "../lib/test-clock-units.ts";
import { useLoad } from "../lib/use-load.ts";
import { Dialog, FormActions } from "./dialog.tsx";
import { Field } from "./field.tsx";
import { Card } from "./page.tsx";
import { CancelSubscriptionDialog } from "./cancel-subscription.tsx";
import { ActionStatus, Empty, Loaded } from "./states.tsx";
import { Table } from "./table.tsx";

type Payments = RenderedConfig["payments"];
type ProductEntry = [string, Payments["products"][string]];
export type PaymentsCustomer = { type: Exclude<CustomerType, "custom">; id: string };

const SHOWN = 100;

export function CustomerProductsCard({ customer, onGranted }: { customer: PaymentsCustomer; onGranted: () => void }) {
  const app = useAdminApp();
  const project = useCurrentProject();
  const payments = useConfig(project).payments;
  const catalogue = Object.entries(payments.products)
    .filter(([, product]) => product.customerType === customer.type)
    .sort(([a], [b]) => a.localeCompare(b));
  const whose = customer.type === "user" ? { userId: customer.id } : { teamId: customer.id };
  const owned = useLoad(() => app.listProducts({ ...whose, limit: SHOWN }), [app, customer.id]);
  const [granting, setGranting] = useState(false);
  const [granted, setGranted] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<CustomerProduct | null>(null);
  return (
    <Card
      title="Products"
      description={`What this ${customer.type} owns of your products, bought or granted.`}
      actions={
        catalogue.length > 0 ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setGranted(null);
              setGranting(true);
            }}
          >
            Grant product
          </button>
        ) : null
      }
    >
      <Dialog open={granting} title="Grant a product" onClose={() => setGranting(false)}>
        {granting ? (
          <GrantForm
            customer={customer}
            catalogue={catalogue}
            productLines={payments.productLines}
            onDone={(name) => {
              setGranting(false);
              if (name === null) return;
              setGranted(`Granted ${name}.`);
              owned.reload();
              onGranted();
            }}
          />
        ) : null}
      </Dialog>
      <CancelSubscriptionDialog
        customer={customer}
        product={cancelling}
        onDone={(name) => {
          setCancelling(null);
          if (name === null) return;
          setGranted(`Cancelled ${name}: it is owned until its period ends.`);
          owned.reload();
          onGranted();
        }}
      />
      <ActionStatus error={null} done={granted} />
      {payments.testMode ? <ClockNote /> : null}
      {catalogue.length === 0 ? (
        <p className="muted small">
          The catalogue has no products for {customer.type}s to grant. <Link to={`/projects/${project.id}/payments`}>Add one</Link>.
        </p>
      ) : null}
      <Loaded load={owned} label="Loading the products…">
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No products yet.</p>
            </Empty>
          ) : (
            <>
              <OwnedTable
                products={list}
                onCancel={(product) => {
                  setGranted(null);
                  setCancelling(product);
                }}
              />
              {list.nextCursor ? <p className="muted small">Showing the first {SHOWN}.</p> : null}
            </>
          )
        }
      </Loaded>
    </Card>
  );
}

/** In test mode a moved clock dates renewals in the project's payments time, not today's: say so. */
function ClockNote() {
  const app = useAdminApp();
  const project = useCurrentProject();
  const clock = useLoad(() => app.getPaymentsTestClock(), [app]);
  if (!clock.data || clock.data.offsetMillis === 0) return null;
  return (
    <p className="muted small">
      Test mode: payments time is {durationText(clock.data.offsetMillis)} ahead of real time, moved with the{" "}
      <Link to={`/projects/${project.id}/payments-settings`}>test clock</Link>; dates here are in payments time.
    </p>
  );
}

function OwnedTable({ products, onCancel }: { products: CustomerProduct[]; onCancel: (product: CustomerProduct) => void }) {
  return (
    <Table columns={["Product", "Quantity", "Renewal", ""]} label="Owned products">
      {products.map((product, i) => (
        <tr key={`${product.id ?? "inline"}-${product.subscription?.subscriptionId ?? i}`}>
          <td>
            {product.displayName} <span className="mono small muted">{product.id ?? "inline"}</span>
          </td>
          <td className="mono">{product.quantity}</td>
          <td>
            <Renewal product={product} />
          </td>
          <td>
            {/* An inline product (no id) is cancelled through the API by its subscription, not from here. */}
            {product.id !== null && product.subscription?.isCancelable ? (
              <button type="button" className="button button-small" onClick={() => onCancel(product)}>
                Cancel
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A running subscription renews at its period's end; a one-time purchase, or a cancelled subscription (owned until its period ends), does not. */
function Renewal({ product }: { product: CustomerProduct }) {
  const end = product.subscription?.currentPeriodEnd;
  if (product.type !== "subscription") return <>Does not renew</>;
  if (!end) return <>Renews</>;
  return (
    <>
      Renews <time dateTime={end.toISOString()}>{end.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}</time>
    </>
  );
}

function GrantForm({
  customer,
  catalogue,
  productLines,
  onDone,
}: {
  customer: PaymentsCustomer;
  catalogue: ProductEntry[];
  productLines: Payments["productLines"];
  onDone: (grantedName: string | null) => void;
}) {
  const app = useAdminApp();
  const [productId, setProductId] = useState(catalogue[0]![0]);
  const [quantity, setQuantity] = useState("1");
  const product = catalogue.find(([id]) => id === productId)![1];
  const name = product.displayName ?? productId;
  const lineId = product.productLineId;
  const action = useAction(async () => {
    const count = product.stackable ? Number(quantity.trim()) : 1;
    if (product.stackable && (!/^\d+$/.test(quantity.trim()) || count < 1)) throw new Error("Give a whole number of at least 1.");
    const whose = customer.type === "user" ? { userId: customer.id } : { teamId: customer.id };
    await app.grantProduct({ ...whose, productId, quantity: count });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone(name));
      }}
    >
      <Field
        label="Product"
        hint={
          lineId
            ? `In the ${productLines[lineId]?.displayName ?? lineId} product line: it replaces the ${customer.type}'s subscription of that line.`
            : undefined
        }
      >
        {(props) => (
          <select {...props} className="input" value={productId} onChange={(e) => setProductId(e.target.value)}>
            {catalogue.map(([id, entry]) => (
              <option key={id} value={id}>
                {entry.displayName ?? id} ({id})
              </option>
            ))}
          </select>
        )}
      </Field>
      {product.stackable ? (
        <Field label="Quantity" hint="This product is stackable: the customer can own several.">
          {(props) => (
            <input
              {...props}
              className="input mono"
              inputMode="numeric"
              required
              value={quantity}
              onChange={(e) => setQuantity(e.target.value)}
            />
          )}
        </Field>
      ) : null}
      <p className="field-hint">
        No payment is taken: the {customer.type} owns {name} as if they had bought it, with its included items.
      </p>
      <ActionStatus error={action.error} />
      <FormActions onCancel={() => onDone(null)} pending={action.pending} submitLabel="Grant product" pendingLabel="Granting…" />
    </form>
  );
}
