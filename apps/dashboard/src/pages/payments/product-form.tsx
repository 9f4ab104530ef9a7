/**
 * Adds or edits one product: its id, name and customer type, its product
 * line, whether it is server-only, stackable or an add-on, a free trial, its
 * prices (or "included by default") and the items it includes. The product's
 * config entry is written whole (catalogue-draft.ts).
 */
import { useState } from "react";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { useAction } from "../../lib/use-action.ts";
import { FormActions } from "../../ui/dialog.tsx";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { draftProblems, productConfig, type Payments, type ProductDraft } from "./catalogue-draft.ts";
import { CustomerTypeSelect } from "./customer-type-select.tsx";
import { IncludedItemsFields } from "./included-items-fields.tsx";
import { IntervalInput } from "./interval-input.tsx";
import { PricesFields } from "./prices-fields.tsx";

export function ProductForm({
  initial,
  isNew,
  payments,
  onDone,
}: {
  initial: ProductDraft;
  isNew: boolean;
  payments: Payments;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const set = (change: Partial<ProductDraft>) => setDraft((d) => ({ ...d, ...change }));
  const update = useUpdateConfig();
  const action = useAction(async () => {
    const problems = draftProblems(draft, Object.keys(payments.products), !isNew);
    if (problems.length > 0) throw new Error(problems.join(" "));
    await update({ [`payments.products.${draft.id}`]: productConfig(draft) });
  });
  const lines = Object.entries(payments.productLines).filter(([, line]) => !line.customerType || line.customerType === draft.customerType);
  const bases = Object.keys(payments.products).filter(
    (id) => id !== draft.id && payments.products[id]!.customerType === draft.customerType,
  );
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone());
      }}
    >
      <Field label="Product id" hint="What your code names: createCheckoutUrl({ productId }). Letters, digits, _ and -.">
        {(props) => (
          <input
            {...props}
            className="input mono"
            required
            autoComplete="off"
            placeholder="pro"
            disabled={!isNew}
            value={draft.id}
            onChange={(e) => set({ id: e.target.value })}
          />
        )}
      </Field>
      <Field label="Display name" hint="Shown on the purchase page; empty, it is the id.">
        {(props) => <input {...props} className="input" value={draft.displayName} onChange={(e) => set({ displayName: e.target.value })} />}
      </Field>
      <CustomerTypeSelect
        value={draft.customerType}
        onChange={(customerType) => set({ customerType, productLineId: "", addOnTo: [] })}
        hint="Who buys it."
      />
      <Field label="Product line" hint="A customer owns at most one product of a line.">
        {(props) => (
          <select {...props} className="input" value={draft.productLineId} onChange={(e) => set({ productLineId: e.target.value })}>
            <option value="">None</option>
            {lines.map(([id, line]) => (
              <option key={id} value={id}>
                {line.displayName ?? id}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Toggle
        label="Server only"
        hint="Only your server can grant it or make its purchase link; clients do not see it."
        checked={draft.serverOnly}
        onChange={(serverOnly) => set({ serverOnly })}
      />
      <Toggle
        label="Stackable"
        hint="A customer may buy it more than once, or several at a time."
        checked={draft.stackable}
        onChange={(stackable) => set({ stackable })}
      />
      {bases.length > 0 ? (
        <fieldset className="fieldset">
          <legend>Add-on to</legend>
          <p className="field-hint">Only a customer who owns one of these can buy it. None: it is not an add-on.</p>
          {bases.map((id) => (
            <label key={id} className="inline-choice mono small">
              <input
                type="checkbox"
                checked={draft.addOnTo.includes(id)}
                onChange={(e) => set({ addOnTo: e.target.checked ? [...draft.addOnTo, id] : draft.addOnTo.filter((b) => b !== id) })}
              />{" "}
              {id}
            </label>
          ))}
        </fieldset>
      ) : null}
      <IntervalInput
        label="Free trial"
        noneLabel="No free trial"
        value={draft.freeTrial}
        defaultUnit="day"
        onChange={(freeTrial) => set({ freeTrial })}
      />
      <Toggle
        label="Included by default"
        hint="Free: every customer of its type owns it without buying it (a free plan)."
        checked={draft.includeByDefault}
        onChange={(includeByDefault) => set({ includeByDefault })}
      />
      {draft.includeByDefault ? null : <PricesFields prices={draft.prices} onChange={(prices) => set({ prices })} />}
      <IncludedItemsFields
        included={draft.includedItems}
        items={Object.entries(payments.items).filter(([, item]) => item.customerType === draft.customerType)}
        onChange={(includedItems) => set({ includedItems })}
      />
      <ActionStatus error={action.error} />
      <FormActions onCancel={onDone} pending={action.pending} submitLabel={isNew ? "Add product" : "Save product"} />
    </form>
  );
}
