/** Adds a trusted domain or changes one; the address is checked first, and what is wrong is said. */
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import type { DomainChange, TrustedDomain } from "./trusted-domains.ts";

/** `editing`: the domain being changed; none to add one. */
export function DomainForm({
  editing,
  save,
  onDone,
}: {
  editing?: TrustedDomain;
  save: (change: DomainChange) => Promise<void>;
  onDone: () => void;
}) {
  const [domain, setDomain] = useState(editing?.domain ?? "");
  const [handlerPath, setHandlerPath] = useState(editing?.handlerPath ?? "/handler");
  const action = useAction(save);
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        const entry = { domain: domain.trim(), handlerPath: handlerPath.trim() };
        void action.run({ ...(editing ? { key: editing.key } : {}), entry }).then((ok) => ok && onDone());
      }}
    >
      <Field
        label="Domain"
        hint="Where your app runs, with its scheme: https://app.example.com. A * matches any subdomain: https://*.example.com."
      >
        {(props) => (
          <input
            {...props}
            className="input mono"
            required
            placeholder="https://app.example.com"
            autoComplete="off"
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
          />
        )}
      </Field>
      <Field label="Handler path" hint="Where your app shows Latchkey's pages (sign-in, e-mail links, OAuth return).">
        {(props) => (
          <input {...props} className="input mono" required value={handlerPath} onChange={(e) => setHandlerPath(e.target.value)} />
        )}
      </Field>
      <ActionStatus error={action.error} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={action.pending}>
          {action.pending ? "Saving…" : editing ? "Save" : "Add domain"}
        </button>
      </div>
    </form>
  );
}
