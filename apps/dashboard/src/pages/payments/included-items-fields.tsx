/** The items a product includes: how many of each per unit bought, how often they are granted again, and when they expire. */
import type { RenderedConfig } from "@latchkey/shared";
import { Field } from "../../ui/field.tsx";
import { emptyIncludedItem, EXPIRIES, type Expiry, type IncludedItemDraft } from "./catalogue-draft.ts";
import { IntervalInput } from "./interval-input.tsx";

const EXPIRY_LABELS: Record<Expiry, string> = {
  "when-repeated": "When granted again",
  "when-purchase-expires": "When the purchase ends",
  never: "Never",
};

type ItemEntry = [string, RenderedConfig["payments"]["items"][string]];

export function IncludedItemsFields({
  included,
  items,
  onChange,
}: {
  included: IncludedItemDraft[];
  /** The items the product's customers can have. */
  items: ItemEntry[];
  onChange: (included: IncludedItemDraft[]) => void;
}) {
  const change = (index: number, patch: Partial<IncludedItemDraft>) =>
    onChange(included.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  const unused = items.map(([id]) => id).filter((id) => !included.some((d) => d.itemId === id));
  return (
    <fieldset className="fieldset">
      <legend>Included items</legend>
      {items.length === 0 ? <p className="field-hint">Add an item of this customer type first to include it.</p> : null}
      {included.map((draft, index) => (
        <div key={index} className="included-draft" role="group" aria-label={`Included item ${draft.itemId}`}>
          <Field label="Item">
            {(props) => (
              <select {...props} className="input" value={draft.itemId} onChange={(e) => change(index, { itemId: e.target.value })}>
                {items.map(([id, item]) => (
                  <option key={id} value={id}>
                    {item.displayName ?? id}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Quantity" hint="Per unit bought.">
            {(props) => (
              <input
                {...props}
                className="input"
                inputMode="numeric"
                value={draft.quantity}
                onChange={(e) => change(index, { quantity: e.target.value })}
              />
            )}
          </Field>
          <IntervalInput
            label="Granted again every"
            noneLabel="Granted once"
            value={draft.repeat}
            onChange={(repeat) => change(index, { repeat })}
          />
          <Field label="Expires">
            {(props) => (
              <select
                {...props}
                className="input"
                value={draft.expires}
                onChange={(e) => change(index, { expires: e.target.value as Expiry })}
              >
                {EXPIRIES.map((expiry) => (
                  <option key={expiry} value={expiry}>
                    {EXPIRY_LABELS[expiry]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="row-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              aria-label={`Remove included item ${draft.itemId}`}
              onClick={() => onChange(included.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      {unused.length > 0 ? (
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => onChange([...included, emptyIncludedItem(unused[0]!)])}
        >
          Include an item
        </button>
      ) : null}
    </fieldset>
  );
}
