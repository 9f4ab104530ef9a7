/**
 * A user's or a team's items (the catalogue's items of its customer type),
 * each with its quantity, and a change by hand: a grant or a removal with a
 * reason and, for a grant, an expiry. A removal that would take the quantity
 * below zero is refused and the dialog says so; apps go below zero on
 * purpose through their server (`decreaseQuantity`).
 */
import type { CustomerType, RenderedConfig } from "@latchkey/shared";
import { useConfig } from "@latchkey/react";
import { useState } from "react";
import { Link } from "react-router";
import { useAdminApp, useCurrentProject } from "../lib/owned-projects.tsx";
import { useAction } from "../lib/use-action.ts";
import { useLoad } from "../lib/use-load.ts";
import { Dialog, FormActions } from "./dialog.tsx";
import { Field } from "./field.tsx";
import { Card } from "./page.tsx";
import { ActionStatus, Empty, Loaded } from "./states.tsx";
import { Table } from "./table.tsx";

type ItemEntry = [string, RenderedConfig["payments"]["items"][string]];

/** `revision` changes when something else changed the quantities (a product granted): they are read again. */
export function CustomerItemsCard({
  customer,
  revision = 0,
}: {
  customer: { type: Exclude<CustomerType, "custom">; id: string };
  revision?: number;
}) {
  const project = useCurrentProject();
  const items = Object.entries(useConfig(project).payments.items)
    .filter(([, item]) => item.customerType === customer.type)
    .sort(([a], [b]) => a.localeCompare(b));
  return (
    <Card title="Items" description={`What this ${customer.type} has of the catalogue's items, granted by products or by hand.`}>
      {items.length === 0 ? (
        <Empty>
          <p>
            The catalogue has no items for {customer.type}s. <Link to={`/projects/${project.id}/payments`}>Add one</Link>.
          </p>
        </Empty>
      ) : (
        <ItemsTable customer={customer} items={items} revision={revision} />
      )}
    </Card>
  );
}

function ItemsTable({
  customer,
  items,
  revision,
}: {
  customer: { type: "user" | "team"; id: string };
  items: ItemEntry[];
  revision: number;
}) {
  const app = useAdminApp();
  const [changing, setChanging] = useState<ItemEntry | null>(null);
  const whose = customer.type === "user" ? { userId: customer.id } : { teamId: customer.id };
  const quantities = useLoad(
    () => Promise.all(items.map(([itemId]) => app.getItem({ itemId, ...whose }).then((item) => item.quantity))),
    [app, customer.id, items.map(([id]) => id).join(), revision],
  );
  return (
    <>
      <Dialog
        open={changing !== null}
        title={`Change ${changing?.[1].displayName ?? changing?.[0] ?? ""}`}
        onClose={() => setChanging(null)}
      >
        {changing ? (
          <ChangeForm
            onDone={(saved) => {
              setChanging(null);
              if (saved) quantities.reload();
            }}
            change={(quantity, description, expiresAt) =>
              app.createItemQuantityChange({ itemId: changing[0], ...whose, quantity, description, ...(expiresAt ? { expiresAt } : {}) })
            }
          />
        ) : null}
      </Dialog>
      <Loaded load={quantities} label="Loading the quantities…">
        {(loaded) => (
          <Table columns={["Item", "Quantity"]} actions label="Items">
            {items.map(([itemId, item], i) => (
              <tr key={itemId}>
                <td>
                  {item.displayName ?? itemId} <span className="mono small muted">{itemId}</span>
                </td>
                <td className="mono">{loaded[i]}</td>
                <td>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Change ${itemId}`}
                    onClick={() => setChanging([itemId, item])}
                  >
                    Change
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </>
  );
}

function ChangeForm({
  change,
  onDone,
}: {
  change: (quantity: number, description: string | undefined, expiresAt: Date | null) => Promise<void>;
  onDone: (saved: boolean) => void;
}) {
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [expires, setExpires] = useState("");
  const action = useAction(async () => {
    const quantity = Number(amount.trim());
    if (!/^-?\d+$/.test(amount.trim()) || quantity === 0) throw new Error("Give a whole number: positive to grant, negative to remove.");
    await change(quantity, description.trim() || undefined, expires ? new Date(expires) : null);
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone(true));
      }}
    >
      <Field label="Change by" hint="Positive grants, negative removes (never below zero from here).">
        {(props) => (
          <input
            {...props}
            className="input mono"
            inputMode="numeric"
            required
            placeholder="10"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        )}
      </Field>
      <Field label="Reason" hint="Optional; kept with the change.">
        {(props) => <input {...props} className="input" value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Field label="Expires" hint="Optional, for a grant: what is left of it then stops counting.">
        {(props) => (
          <input {...props} className="input" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        )}
      </Field>
      <ActionStatus error={action.error} />
      <FormActions onCancel={() => onDone(false)} pending={action.pending} submitLabel={"Save change"} />
    </form>
  );
}
