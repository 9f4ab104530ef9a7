/** A new key set's full values: shown this once, with a confirmation that they were copied before moving on. */
import type { InternalApiKeyFirstView } from "@latchkey/js";
import { useId, useState } from "react";
import { CopyField } from "../../ui/copy-field.tsx";

export function KeysShownOnce({
  projectId,
  keys,
  onDone,
  doneLabel = "Done",
  onCopiedChange,
}: {
  projectId: string;
  keys: InternalApiKeyFirstView;
  onDone: () => void;
  doneLabel?: string;
  /** Told when the "copied" box is ticked or cleared: until it is ticked, leaving would lose the keys. */
  onCopiedChange?: (copied: boolean) => void;
}) {
  const [copied, setCopiedState] = useState(false);
  const setCopied = (value: boolean) => {
    setCopiedState(value);
    onCopiedChange?.(value);
  };
  const id = useId();
  return (
    <div className="keys-once">
      <p className="notice notice-warning">
        These keys are shown only now. Copy them to your app's configuration before you leave this page.
      </p>
      <CopyField label="Project ID" value={projectId} />
      {keys.publishableClientKey ? <CopyField label="Publishable client key" value={keys.publishableClientKey} /> : null}
      {keys.secretServerKey ? <CopyField label="Secret server key" value={keys.secretServerKey} secret /> : null}
      {keys.superSecretAdminKey ? <CopyField label="Super secret admin key" value={keys.superSecretAdminKey} secret /> : null}
      <div className="toggle">
        <input id={id} type="checkbox" checked={copied} onChange={(e) => setCopied(e.target.checked)} />
        <label htmlFor={id}>I have copied the keys somewhere safe</label>
      </div>
      <button type="button" className="button" disabled={!copied} onClick={onDone}>
        {doneLabel}
      </button>
    </div>
  );
}
