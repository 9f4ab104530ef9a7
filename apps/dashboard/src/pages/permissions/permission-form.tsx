/** Creates or edits a permission definition: its id (renaming it on edit), description, and the permissions it contains. */
import type { AdminPermissionDefinition } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

export interface PermissionValues {
  id: string;
  description: string;
  containedPermissionIds: string[];
}

export function PermissionForm({
  editing,
  definitions,
  onSubmit,
}: {
  /** The definition being edited; absent, a new one is created. */
  editing?: AdminPermissionDefinition;
  /** Every definition of the scope: what this one may contain. */
  definitions: AdminPermissionDefinition[];
  onSubmit: (values: PermissionValues) => Promise<void>;
}) {
  const [id, setId] = useState(editing?.id ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [contained, setContained] = useState<string[]>(editing?.containedPermissionIds ?? []);
  const save = useAction(() => onSubmit({ id: id.trim(), description: description.trim(), containedPermissionIds: contained }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  const others = definitions.filter((d) => d.id !== editing?.id);
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Permission id" hint={'Lowercase letters, numbers, ":" and "_", e.g. "read:reports".'}>
        {(props) => (
          <input {...props} className="input mono" required autoComplete="off" value={id} onChange={(e) => setId(e.target.value)} />
        )}
      </Field>
      <Field label="Description">
        {(props) => <input {...props} className="input" value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <fieldset className="fieldset contained-choices">
        <legend>Contains</legend>
        {others.length === 0 ? <p className="muted small">No other permissions to contain yet.</p> : null}
        {others.map((d) => (
          <Toggle
            key={d.id}
            label={d.id}
            hint={d.description}
            checked={contained.includes(d.id)}
            onChange={(on) => setContained(on ? [...contained, d.id] : contained.filter((x) => x !== d.id))}
          />
        ))}
      </fieldset>
      <ActionStatus error={save.error} />
      <button type="submit" className="button" disabled={save.pending}>
        {save.pending ? "Saving…" : editing ? "Save permission" : "Create permission"}
      </button>
    </form>
  );
}
