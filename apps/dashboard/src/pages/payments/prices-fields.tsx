/** A product's prices: each with an id, an amount in each currency it is sold in, and an interval (none: one-time). */
import { Field, Toggle } from "../../ui/field.tsx";
import { CURRENCY_CODES, emptyPrice, type PriceDraft } from "./catalogue-draft.ts";
import { IntervalInput } from "./interval-input.tsx";

export function PricesFields({ prices, onChange }: { prices: PriceDraft[]; onChange: (prices: PriceDraft[]) => void }) {
  const change = (index: number, patch: Partial<PriceDraft>) => onChange(prices.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  return (
    <fieldset className="fieldset">
      <legend>Prices</legend>
      <p className="field-hint">Amounts like 9.99 (JPY without decimals). Leave empty the currencies you do not sell in.</p>
      {prices.map((price, index) => (
        <div key={index} className="price-draft" role="group" aria-label={`Price ${index + 1}`}>
          <Field label="Price id">
            {(props) => (
              <input {...props} className="input mono" value={price.id} onChange={(e) => change(index, { id: e.target.value })} />
            )}
          </Field>
          <div className="currency-amounts">
            {CURRENCY_CODES.map((currency) => (
              <Field key={currency} label={currency}>
                {(props) => (
                  <input
                    {...props}
                    className="input mono"
                    inputMode="decimal"
                    value={price.amounts[currency] ?? ""}
                    onChange={(e) => change(index, { amounts: { ...price.amounts, [currency]: e.target.value } })}
                  />
                )}
              </Field>
            ))}
          </div>
          <IntervalInput
            label="Billed every"
            noneLabel="One-time"
            value={price.interval}
            onChange={(interval) => change(index, { interval })}
          />
          <Toggle
            label="Server only"
            hint="Only your server can make a purchase link with this price."
            checked={price.serverOnly}
            onChange={(serverOnly) => change(index, { serverOnly })}
          />
          <div className="row-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              aria-label={`Remove price ${price.id || index + 1}`}
              onClick={() => onChange(prices.filter((_, i) => i !== index))}
            >
              Remove price
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => onChange([...prices, emptyPrice(prices.length)])}
      >
        Add price
      </button>
    </fieldset>
  );
}
