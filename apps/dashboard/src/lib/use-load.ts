/**
 * Reads that pages show with their own loading, empty and error states
 * (rather than suspending the whole page): the latest call wins, so a
 * fast-typing search never shows an older answer.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type Load<T> =
  | { status: "loading"; data: T | undefined; error: null; reload: () => void }
  | { status: "ready"; data: T; error: null; reload: () => void }
  | { status: "error"; data: T | undefined; error: unknown; reload: () => void };

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [state, setState] = useState<{ status: "loading" | "ready" | "error"; data: T | undefined; error: unknown }>({
    status: "loading",
    data: undefined,
    error: null,
  });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const call = ++latest.current;
    setState((s) => ({ status: "loading", data: s.data, error: null }));
    loadRef.current().then(
      (data) => {
        if (call === latest.current) setState({ status: "ready", data, error: null });
      },
      (error: unknown) => {
        if (call === latest.current) setState((s) => ({ status: "error", data: s.data, error }));
      },
    );
    // The caller names what the read depends on; `round` is a reload.
  }, [...deps, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload } as Load<T>;
}
