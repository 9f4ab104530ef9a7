/** Adds a trusted domain or changes one; the server checks the address and answers with what is wrong. */
import { useState } from "react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useSaveProject } from "../../lib/save-project.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

/** `index`: the domain being changed; none to add one. */
export function DomainForm({ index, onDone }: { index?: number; onDone: () => void }) {
  const domains = useCurrentProject().config.domains;
  const editing = index === undefined ? undefined : domains[index];
  const [domain, setDomain] = useState(editing?.domain ?? "");
  const [handlerPath, setHandlerPath] = useState(editing?.handlerPath ?? "/handler");
  const save = useSaveProject();
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        const entry = { domain: domain.trim(), handlerPath: handlerPath.trim() };
        const next = domains.map((d) => ({ domain: d.domain, handlerPath: d.handlerPath }));
        if (index === undefined) next.push(entry);
        else next[index] = entry;
        void save.run({ config: { domains: next } }).then((ok) => ok && onDone());
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
      <ActionStatus error={save.error} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={save.pending}>
          {save.pending ? "Saving…" : index === undefined ? "Add domain" : "Save"}
        </button>
      </div>
    </form>
  );
}
