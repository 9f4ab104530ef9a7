/**
 * The catalogue's items (`payments.items.<id>`): listed, added, renamed or
 * moved to another customer type, and removed. Quantities are per customer
 * and are changed on the customer's page, not here.
 */
import { PAYMENTS_ID_PATTERN, type CustomerType } from "@latchkey/shared";
import { useState } from "react";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { useAction } from "../../lib/use-action.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog, FormActions } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Empty } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { idRule, type Payments } from "./catalogue-draft.ts";
import { CustomerTypeSelect } from "./customer-type-select.tsx";

type Editing = { id: string; displayName: string; customerType: CustomerType; isNew: boolean };

export function ItemsCard({ payments }: { payments: Payments }) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const update = useUpdateConfig();
  const items = Object.entries(payments.items).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Card
      title="Items"
      description="What a customer has a quantity of: credits, seats, API calls. Products include them; your server grants and uses them up."
      actions={
        <button type="button" className="button" onClick={() => setEditing({ id: "", displayName: "", customerType: "user", isNew: true })}>
          Add item
        </button>
      }
    >
      <Dialog
        open={editing !== null}
        title={editing?.isNew ? "Add an item" : `Edit item ${editing?.id ?? ""}`}
        onClose={() => setEditing(null)}
      >
        {editing ? <ItemForm initial={editing} existing={Object.keys(payments.items)} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      {items.length === 0 ? (
        <Empty>
          <p>No items yet. Add one, then read it in your app with user.getItem(id).</p>
        </Empty>
      ) : (
        <Table columns={["Item id", "Display name", "Customer type"]} actions label="Items">
          {items.map(([id, item]) => (
            <tr key={id}>
              <td className="mono">{id}</td>
              <td>{item.displayName ?? id}</td>
              <td>{item.customerType}</td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Edit item ${id}`}
                    onClick={() => setEditing({ id, displayName: item.displayName ?? "", customerType: item.customerType, isNew: false })}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete item ${id}`}
                    title={`Delete item ${id}?`}
                    confirmLabel="Delete item"
                    pendingLabel="Deleting…"
                    action={() => update({ [`payments.items.${id}`]: null })}
                  >
                    <p>
                      Customers' quantities of <span className="mono">{id}</span> stay recorded, but nothing reads them until an item with
                      this id is added again. Products that include it should be changed first.
                    </p>
                  </ConfirmButton>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

function ItemForm({ initial, existing, onDone }: { initial: Editing; existing: string[]; onDone: () => void }) {
  const [id, setId] = useState(initial.id);
  const [displayName, setDisplayName] = useState(initial.displayName);
  const [customerType, setCustomerType] = useState<CustomerType>(initial.customerType);
  const update = useUpdateConfig();
  const action = useAction(async () => {
    const itemId = id.trim();
    if (!PAYMENTS_ID_PATTERN.test(itemId)) throw new Error(idRule("An item"));
    if (initial.isNew && existing.includes(itemId)) throw new Error(`There is already an item "${itemId}".`);
    await update({ [`payments.items.${itemId}`]: { ...(displayName.trim() ? { displayName: displayName.trim() } : {}), customerType } });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone());
      }}
    >
      <Field label="Item id" hint="What your code names: user.getItem(id). Letters, digits, _ and -.">
        {(props) => (
          <input
            {...props}
            className="input mono"
            required
            autoComplete="off"
            placeholder="credits"
            disabled={!initial.isNew}
            value={id}
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </Field>
      <Field label="Display name" hint="For people; empty, it is the id.">
        {(props) => <input {...props} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />}
      </Field>
      <CustomerTypeSelect value={customerType} onChange={setCustomerType} hint="Who has a quantity of it." />
      <ActionStatus error={action.error} />
      <FormActions onCancel={onDone} pending={action.pending} submitLabel={initial.isNew ? "Add item" : "Save item"} />
    </form>
  );
}
