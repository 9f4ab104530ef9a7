/**
 * After a Resend the server's job runner makes the new attempt moments later, so a reload at the click mostly
 * misses it: the list is read again a few times, briefly, until it holds an attempt it did not before. (A test
 * send's attempt is made before its answer: the first read shows it, and the watch ends there.)
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Load } from "../../lib/use-load.ts";

/** How long after each answer the list is read again, and how many times at most. */
const POLL_MILLIS = 400;
const POLL_TIMES = 15;

/** Returns what starts the watch: a reload at once, then more while no new attempt shows and reads are left. */
export function useWatchNewAttempt(attempts: Load<readonly { id: string }[]>): () => void {
  const [watch, setWatch] = useState<{ known: ReadonlySet<string>; left: number } | null>(null);
  const reload = useRef(attempts.reload);
  reload.current = attempts.reload;
  const { data } = attempts;
  useEffect(() => {
    if (!watch) return;
    if (watch.left === 0 || data?.some((attempt) => !watch.known.has(attempt.id))) {
      setWatch(null);
      return;
    }
    // Cleared when an answer comes (the check above runs again), when the watch ends, and on unmount.
    const timer = setTimeout(() => {
      reload.current();
      setWatch({ ...watch, left: watch.left - 1 });
    }, POLL_MILLIS);
    return () => clearTimeout(timer);
  }, [watch, data]);
  return useCallback(() => {
    setWatch({ known: new Set(data?.map((attempt) => attempt.id)), left: POLL_TIMES });
    reload.current();
  }, [data]);
}
