/**
 * For a control that sends the browser away (to an OAuth provider's page):
 * busy from the click until the page leaves, or, when starting fails, the
 * error's text, the control usable again and the keyboard focus back on it.
 */
import { useEffect, useState } from "react";
import { errorText, useFocusAfterRender } from "./parts.tsx";

export function useLeavingAction<Args extends unknown[]>(leave: (...args: Args) => Promise<unknown>) {
  const [busy, setBusy] = useLeavingState();
  const [error, setError] = useState<string | null>(null);
  const focusAfterRender = useFocusAfterRender();
  const start = async (...args: Args) => {
    // Disabling the clicked control takes focus from it: it comes back if starting fails.
    const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setBusy(true);
    setError(null);
    try {
      // Once the browser is on its way to the provider, the control stays busy until the page is gone.
      await leave(...args);
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
      focusAfterRender(() => trigger);
    }
  };
  return { busy, error, start };
}

/**
 * Whether a control has sent the browser to a provider's page: its state
 * while the page leaves. Back from there, the browser may restore this page
 * as it was left (its back-forward cache), so that state ends then.
 */
function useLeavingState(): [boolean, (leaving: boolean) => void] {
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);
  return [leaving, setLeaving];
}
