/** Small building blocks shared by the components: labelled fields, alerts, async actions. */
import { KnownError, KnownErrors, type CacheEntry } from "@latchkey/js";
import { useCacheSnapshot } from "../use-cache-entry.ts";
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { ProjectBrand } from "./project-brand.tsx";

/** `error`: what is wrong with this field's value, shown under it, announced, and tied to the input. */
export function Field({ label, error, ...input }: { label: string; error?: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="lk-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="lk-input" {...(error ? { "aria-invalid": true, "aria-describedby": errorId } : {})} {...input} />
      {error ? (
        <p id={errorId} className="lk-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The one link under a page's content (back to sign in, home, …). */
export function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <p className="lk-muted">
      <a className="lk-link" href={href}>
        {children}
      </a>
    </p>
  );
}

/** The line between two ways in ("or"). */
export function Separator() {
  return (
    <div className="lk-separator" role="separator">
      <span>or</span>
    </div>
  );
}

export function Alert({ children }: { children: ReactNode }) {
  return children ? (
    <div role="alert" className="lk-alert">
      {children}
    </div>
  ) : null;
}

/**
 * `header`: shown above the title (the project's name and logo on the sign-in pages).
 * `headingRef`: for a page that moves focus to its heading (which can then take focus, but is not in the tab order).
 */
/**
 * A page of its own (sign-in, a reset link, an invitation…): the project's brand above its title, as on every
 * page the visitor meets (components/project-brand.tsx), unless `header` gives another.
 */
export function Card({
  title,
  wide,
  header = <ProjectBrand />,
  headingRef,
  children,
}: {
  title: string;
  wide?: boolean;
  header?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  return (
    <div className={`lk-root lk-card${wide ? " lk-wide" : ""}`}>
      {header}
      <h1 className="lk-title" ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
        {title}
      </h1>
      {children}
    </div>
  );
}

/** `url` (sign in or up) with `after_auth_return_to` set to this page, so the visitor comes back here afterwards. */
export function returningHere(url: string): string {
  const target = new URL(url, window.location.href);
  target.searchParams.set("after_auth_return_to", `${window.location.pathname}${window.location.search}`);
  return target.origin === window.location.origin ? `${target.pathname}${target.search}` : target.toString();
}

/** What to show for a failure: the server's own words for coded errors, else a general line. */
export function errorText(error: unknown): string {
  if (error instanceof KnownError) return error.message;
  if (error instanceof Error && error.name === "ConnectionError") return error.message;
  return "Something went wrong. Please try again.";
}

/**
 * Runs an async action from an event handler: tracks whether it runs and
 * keeps its error text (thrown errors and error Results alike).
 */
export function useAction<Args extends unknown[]>(action: (...args: Args) => Promise<string | void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: Args) => {
      setBusy(true);
      setError(null);
      try {
        const message = await action(...args);
        if (message) setError(message);
      } catch (caught) {
        // The SDK has already sent the browser to the MFA page: nothing went wrong, the page is about to change.
        if (!(caught instanceof KnownErrors.MultiFactorAuthenticationRequired)) setError(errorText(caught));
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { run, busy, error, setError };
}

/** A form's submit handler that runs `run` in place of the browser's own submit. */
export function submitTo(run: () => unknown) {
  return (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <section className="lk-section" aria-labelledby={`lk-${id}`}>
      <h2 id={`lk-${id}`}>{title}</h2>
      {children}
    </section>
  );
}

/** A titled part of a section (e.g. one team's members in account settings). */
export function Subsection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="lk-subsection" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/**
 * A button for what cannot be undone: the first click asks, the second (`confirmLabel`) does it.
 * Each click replaces the focused button, so focus moves to the one that takes its place: the
 * confirm button when asking, the first one again after Cancel.
 */
/**
 * Moves the keyboard focus once the element it names is on screen and
 * usable: after the render that shows it (a form closing brings its button
 * back), or, for a button disabled while an action ran, after the render
 * that enables it again. A focus asked for in the event handler itself would
 * land on nothing, since the element is not there (or not enabled) yet.
 */
export function useFocusAfterRender(): (target: () => HTMLElement | null | undefined) => void {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const element = pending.current?.();
    if (!element || (element as HTMLButtonElement).disabled) return;
    pending.current = null;
    element.focus();
  });
  return useCallback((target: () => HTMLElement | null | undefined) => {
    pending.current = target;
  }, []);
}

export function ConfirmedAction({
  label,
  ariaLabel,
  confirmLabel,
  busy,
  disabled = false,
  describedBy,
  onConfirm,
}: {
  label: string;
  /** Names what the first button acts on, when several such buttons share a label. */
  ariaLabel?: string;
  confirmLabel: string;
  busy: boolean;
  /** The action is not allowed now (`describedBy`: the id of the text saying why). */
  disabled?: boolean;
  describedBy?: string;
  onConfirm(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const askButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const show = (asking: boolean) => {
    setConfirming(asking);
    focusAfterRender(() => (asking ? confirmButton : askButton).current);
  };
  // The confirm button is disabled while the action runs, which takes focus from it. If it is
  // still here afterwards (the action failed) and focus went nowhere else, focus comes back to it.
  const wasBusy = useRef(busy);
  useEffect(() => {
    const lostFocus = document.activeElement === null || document.activeElement === document.body;
    if (wasBusy.current && !busy && confirming && lostFocus) confirmButton.current?.focus();
    wasBusy.current = busy;
  }, [busy, confirming]);
  return confirming ? (
    <span className="lk-row">
      <button ref={confirmButton} className="lk-button lk-button-danger" type="button" disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button className="lk-button lk-button-secondary" type="button" onClick={() => show(false)}>
        Cancel
      </button>
    </span>
  ) : (
    <span className="lk-row">
      <button
        ref={askButton}
        className="lk-button lk-button-secondary"
        type="button"
        aria-label={ariaLabel}
        aria-describedby={describedBy}
        disabled={disabled}
        onClick={() => show(true)}
      >
        {label}
      </button>
    </span>
  );
}

/** A cached read for a component that shows its own loading and error states: the value (null until it arrives) or the error's text. */
export function useLoaded<T>(entry: CacheEntry<T>): { value: T | null; error: string | null } {
  const snapshot = useCacheSnapshot(entry);
  return {
    value: snapshot.status === "ok" ? snapshot.value : null,
    error: snapshot.status === "error" ? errorText(snapshot.error) : null,
  };
}

/**
 * A read the SDK does not cache (a user's sessions, a team's API keys), made by the component itself: the value (null until it
 * arrives), the error's text, and `reload` after a change made here. `read` is called again whenever it changes, so pass one
 * made with useCallback.
 */
export function useRead<T>(read: () => Promise<T>): { value: T | null; error: string | null; reload(): void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    read().then(setValue, (caught: unknown) => setError(errorText(caught)));
  }, [read]);
  useEffect(reload, [reload]);
  return { value, error, reload };
}

/** The `code` a mailed link carries in its query string (read once, on the client). */
export function useCodeFromUrl(): string | null {
  const [code] = useState(() => (typeof window === "undefined" ? null : new URL(window.location.href).searchParams.get("code")));
  return code;
}
