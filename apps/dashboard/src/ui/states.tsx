/** The loading, empty and error states every page shows the same way. */
import type { ReactNode } from "react";
import { errorText } from "../lib/error-text.ts";
import type { Load } from "../lib/use-load.ts";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <span>{typeof error === "string" ? error : errorText(error)}</span>
      {retry ? (
        <button type="button" className="button button-secondary button-small" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Renders a read: its error (with "Try again"), "Loading…" before the first answer, then the data (kept while reloading). */
export function Loaded<T>({ load, children, label }: { load: Load<T>; children: (data: T) => ReactNode; label?: string }) {
  if (load.status === "error") return <ErrorNotice error={load.error} retry={load.reload} />;
  if (load.data === undefined) return <Loading label={label} />;
  return <>{children(load.data)}</>;
}

/** Reads `load` again; off while a read is under way. Small in a card's header, full size in a page's. */
export function RefreshButton({ load, small = false }: { load: Load<unknown>; small?: boolean }) {
  return (
    <button
      type="button"
      className={small ? "button button-secondary button-small" : "button button-secondary"}
      onClick={load.reload}
      disabled={load.status === "loading"}
    >
      Refresh
    </button>
  );
}

/** What an action said: its error, or its success message. */
export function ActionStatus({ error, done, pending = false }: { error: string | null; done?: string | null; pending?: boolean }) {
  // A control that saves as soon as it changes says so while it waits.
  if (pending)
    return (
      <p className="field-hint" role="status">
        Saving…
      </p>
    );
  if (error) return <ErrorNotice error={error} />;
  if (done)
    return (
      <p className="notice notice-success" role="status">
        {done}
      </p>
    );
  return null;
}
