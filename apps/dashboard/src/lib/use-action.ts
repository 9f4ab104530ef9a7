/**
 * A button's work: pending while it runs, the error in words if it fails,
 * a short "done" message if it succeeds. Forms and buttons use it so every
 * action shows the same three states.
 */
import { useCallback, useState } from "react";
import { errorText } from "./error-text.ts";

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<boolean>;
  pending: boolean;
  error: string | null;
  done: string | null;
  reset: () => void;
}

export function useAction<A extends unknown[]>(work: (...args: A) => Promise<string | void>): Action<A> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setPending(true);
      setError(null);
      setDone(null);
      try {
        const message = await work(...args);
        setDone(message ?? null);
        return true;
      } catch (caught) {
        setError(errorText(caught));
        return false;
      } finally {
        setPending(false);
      }
    },
    [work],
  );
  const reset = useCallback(() => {
    setError(null);
    setDone(null);
  }, []);
  return { run, pending, error, done, reset };
}
