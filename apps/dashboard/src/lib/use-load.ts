/**
 * Reads that pages show with their own loading, empty and error states
 * (rather than suspending the whole page): the latest call wins, so a
 * fast-typing search never shows an older answer. A reload keeps showing
 * the data it replaces; a read of something else (the deps changed) does
 * not, so one user's or project's data never shows under another's.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type Load<T> =
  | { status: "loading"; data: T | undefined; error: null; reload: () => void }
  | { status: "ready"; data: T; error: null; reload: () => void }
  | { status: "error"; data: T | undefined; error: unknown; reload: () => void };

type State<T> = { status: "loading" | "ready" | "error"; data: T | undefined; error: unknown };

const LOADING = { status: "loading", data: undefined, error: null } as const;

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [state, setState] = useState<State<T>>(LOADING);
  const [loadedDeps, setLoadedDeps] = useState(deps);
  // Reset while rendering, so not even one frame shows the data of the previous deps.
  if (!sameDeps(loadedDeps, deps)) {
    setLoadedDeps(deps);
    setState(LOADING);
  }
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
  // During the render that notices new deps, `state` is still the old one: show loading, not it.
  const shown = sameDeps(loadedDeps, deps) ? state : LOADING;
  return { ...shown, reload } as Load<T>;
}
