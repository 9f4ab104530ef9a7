/**
 * Product lines (`payments.productLines.<id>`): a customer owns at most one
 * product of a line (add-ons aside), so buying another one switches plans.
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

export function ProductLinesCard({ payments }: { payments: Payments }) {
  const [adding, setAdding] = useState(false);
  const update = useUpdateConfig();
  const lines = Object.entries(payments.productLines).sort(([a], [b]) => a.localeCompare(b));
  const productsIn = (lineId: string) =>
    Object.entries(payments.products)
      .filter(([, p]) => p.productLineId === lineId)
      .map(([id]) => id);
  return (
    <Card
      title="Product lines"
      description="Products a customer owns at most one of, such as plans: buying another product of the line replaces the one owned."
      actions={
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Add product line
        </button>
      }
    >
      <Dialog open={adding} title="Add a product line" onClose={() => setAdding(false)}>
        {adding ? <LineForm existing={Object.keys(payments.productLines)} onDone={() => setAdding(false)} /> : null}
      </Dialog>
      {lines.length === 0 ? (
        <Empty>
          <p>No product lines. Add one to make plans a customer switches between.</p>
        </Empty>
      ) : (
        <Table columns={["Line id", "Display name", "Customer type", "Products"]} actions label="Product lines">
          {lines.map(([id, line]) => (
            <tr key={id}>
              <td className="mono">{id}</td>
              <td>{line.displayName ?? id}</td>
              <td>{line.customerType ?? "—"}</td>
              <td className="mono small">{productsIn(id).join(", ") || "—"}</td>
              <td>
                <div className="row-actions">
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete product line ${id}`}
                    title={`Delete product line ${id}?`}
                    confirmLabel="Delete product line"
                    pendingLabel="Deleting…"
                    action={() => update({ [`payments.productLines.${id}`]: null })}
                  >
                    <p>Products of this line should be moved out of it first.</p>
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

function LineForm({ existing, onDone }: { existing: string[]; onDone: () => void }) {
  const [id, setId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [customerType, setCustomerType] = useState<CustomerType>("user");
  const update = useUpdateConfig();
  const action = useAction(async () => {
    const lineId = id.trim();
    if (!PAYMENTS_ID_PATTERN.test(lineId)) throw new Error(idRule("A product line"));
    if (existing.includes(lineId)) throw new Error(`There is already a product line "${lineId}".`);
    await update({
      [`payments.productLines.${lineId}`]: { ...(displayName.trim() ? { displayName: displayName.trim() } : {}), customerType },
    });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone());
      }}
    >
      <Field label="Product line id">
        {(props) => (
          <input
            {...props}
            className="input mono"
            required
            autoComplete="off"
            placeholder="plans"
            value={id}
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </Field>
      <Field label="Display name" hint="For people; empty, it is the id.">
        {(props) => <input {...props} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />}
      </Field>
      <CustomerTypeSelect value={customerType} onChange={setCustomerType} />
      <ActionStatus error={action.error} />
      <FormActions onCancel={onDone} pending={action.pending} submitLabel={"Add product line"} />
    </form>
  );
}
