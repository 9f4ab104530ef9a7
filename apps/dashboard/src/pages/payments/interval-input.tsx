/** An interval (a count and a unit), or none: "one-time", "no trial", "never". */
import { useId } from "react";
import { INTERVAL_UNITS, type IntervalDraft } from "./catalogue-draft.ts";

export function IntervalInput({
  label,
  noneLabel,
  value,
  onChange,
  defaultUnit = "month",
}: {
  label: string;
  /** What "no interval" means here, e.g. "One-time". */
  noneLabel: string;
  value: IntervalDraft | null;
  onChange: (value: IntervalDraft | null) => void;
  defaultUnit?: IntervalDraft["unit"];
}) {
  const id = useId();
  return (
    <fieldset className="fieldset interval-input">
      <legend>{label}</legend>
      <label className="inline-choice">
        <input
          type="checkbox"
          checked={value === null}
          onChange={(e) => onChange(e.target.checked ? null : { count: "1", unit: defaultUnit })}
        />{" "}
        {noneLabel}
      </label>
      {value === null ? null : (
        <div className="interval-parts">
          <label htmlFor={`${id}-count`} className="visually-hidden">
            {`${label}: how many`}
          </label>
          <input
            id={`${id}-count`}
            className="input interval-count"
            inputMode="numeric"
            value={value.count}
            onChange={(e) => onChange({ ...value, count: e.target.value })}
          />
          <label htmlFor={`${id}-unit`} className="visually-hidden">
            {`${label}: unit`}
          </label>
          <select
            id={`${id}-unit`}
            className="input"
            value={value.unit}
            onChange={(e) => onChange({ ...value, unit: e.target.value as IntervalDraft["unit"] })}
          >
            {INTERVAL_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}s
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}
