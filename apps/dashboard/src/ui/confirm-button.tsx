/**
 * A button for something that cannot be undone: it asks first, in a dialog that
 * says what will happen, and runs the action only on the second click. The
 * action's error stays in the dialog; on success the dialog closes.
 */
import { useState, type ReactNode } from "react";
import { useAction } from "../lib/use-action.ts";
import { Dialog } from "./dialog.tsx";
import { ActionStatus } from "./states.tsx";

export function ConfirmButton({
  label,
  ariaLabel,
  title,
  children,
  confirmLabel,
  pendingLabel = "Working…",
  action,
  small = true,
  disabled = false,
}: {
  /** The button's text. */
  label: string;
  /** The button's name when its text alone is ambiguous (e.g. one "Remove" per row). */
  ariaLabel?: string;
  /** The dialog's question, e.g. "Remove this passkey?". */
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  action: () => Promise<unknown>;
  small?: boolean;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const run = useAction(async () => {
    await action();
    setOpen(false);
  });
  return (
    <>
      <button
        type="button"
        className={`button button-danger${small ? " button-small" : ""}`}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => (run.reset(), setOpen(true))}
      >
        {label}
      </button>
      <Dialog open={open} title={title} onClose={() => setOpen(false)}>
        <div className="confirm-body">{children}</div>
        <ActionStatus error={run.error} />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="button" className="button button-danger" disabled={run.pending} onClick={() => void run.run()}>
            {run.pending ? pendingLabel : confirmLabel}
          </button>
        </div>
      </Dialog>
    </>
  );
}
