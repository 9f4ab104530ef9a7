/**
 * A modal dialog on the browser's own <dialog>: focus moves in and is held
 * there, Escape closes it, and focus returns to what opened it. A dialog
 * that is not `dismissible` (it shows something that would be lost) stays
 * open on Escape: only its own buttons close it.
 */
import { useEffect, useRef, type ReactNode } from "react";

export function Dialog({
  open,
  title,
  onClose,
  dismissible = true,
  children,
}: {
  open: boolean;
  title: string;
  /** Called once when the person dismisses the dialog (Escape), not when `open` turns false. */
  onClose: () => void;
  dismissible?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const closed = () => {
    // Closed by the parent (`open` already false): nothing to report.
    if (!open) return;
    if (dismissible) onClose();
    // The browser closes a dialog on a second Escape even when its cancel was refused: show it again.
    else ref.current?.showModal();
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={title}
      onClose={closed}
      onCancel={(e) => {
        if (!dismissible) e.preventDefault();
      }}
    >
      {open ? (
        <>
          <h2>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/** A dialog form's footer: Cancel, and the submit button, which says `pendingLabel` and is disabled while the form saves. */
export function FormActions({
  onCancel,
  pending,
  submitLabel,
  pendingLabel = "Saving…",
}: {
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}
