/** A dialog asking for a name, for a new template, theme or draft. */
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

export function NewNameDialog({
  open,
  title,
  label,
  hint,
  onClose,
  create,
}: {
  open: boolean;
  title: string;
  label: string;
  hint?: string;
  onClose: () => void;
  create: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState("");
  const action = useAction(async () => {
    await create(name.trim());
    setName("");
    onClose();
  });
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run();
        }}
      >
        <Field label={label} hint={hint}>
          {(props) => (
            <input {...props} className="input" value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <ActionStatus error={action.error} />
        <button type="submit" className="button" disabled={action.pending || name.trim() === ""}>
          {action.pending ? "Creating…" : "Create"}
        </button>
      </form>
    </Dialog>
  );
}
