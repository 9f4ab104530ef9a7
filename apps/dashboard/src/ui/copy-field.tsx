/** A value to copy (a key, an id, a URL): read-only text and a Copy button that says when it worked. */
import { useId, useState } from "react";

export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const id = useId();
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // Clipboard access needs a secure context or permission; the text stays selectable.
      setCopied("failed");
    }
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} className="input mono" readOnly value={value} onFocus={(e) => e.target.select()} data-secret={secret || undefined} />
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
      </div>
      {copied === "failed" ? <p className="field-hint">Select the text and copy it with your keyboard.</p> : null}
    </div>
  );
}
