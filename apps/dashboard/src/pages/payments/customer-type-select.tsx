/** The customer type of an item, product or product line: who can own it. */
import { CUSTOMER_TYPES, type CustomerType } from "@latchkey/shared";
import { Field } from "../../ui/field.tsx";

const LABELS: Record<CustomerType, string> = { user: "Users", team: "Teams", custom: "Custom customers (your own ids)" };

export function CustomerTypeSelect({
  value,
  onChange,
  disabled,
  hint,
}: {
  value: CustomerType;
  onChange: (value: CustomerType) => void;
  disabled?: boolean;
  hint?: string;
}) {
  return (
    <Field label="Customer type" hint={hint}>
      {(props) => (
        <select {...props} className="input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as CustomerType)}>
          {CUSTOMER_TYPES.map((type) => (
            <option key={type} value={type}>
              {LABELS[type]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
