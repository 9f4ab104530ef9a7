/** A value to copy (a key, an id, a URL, a file): a Copy button that says when it worked, and the value beside it. */
import { useId } from "react";
import { useCopy } from "../lib/use-copy.ts";

/** The Copy button, and (when the browser refused) how to copy by hand. */
export function CopyButton({ text, ariaLabel, small = false }: { text: string; ariaLabel?: string; small?: boolean }) {
  const { copy, copied } = useCopy(text);
  return (
    <>
      <button
        type="button"
        className={`button button-secondary${small ? " button-small" : ""}`}
        aria-label={ariaLabel}
        onClick={() => void copy()}
      >
        {copied === "yes" ? "Copied" : "Copy"}
      </button>
      {copied === "failed" ? <p className="field-hint copy-failed">Select the text and copy it with your keyboard.</p> : null}
    </>
  );
}

export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const id = useId();
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} className="input mono" readOnly value={value} onFocus={(e) => e.target.select()} data-secret={secret || undefined} />
        <CopyButton text={value} />
      </div>
    </div>
  );
}
