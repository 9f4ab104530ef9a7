/** A value that follows `value` once it has stopped changing for `millis`: typing asks the server once per pause, not per key. */
import { useEffect, useState } from "react";

export function useDebounced<T>(value: T, millis = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), millis);
    return () => clearTimeout(timer);
  }, [value, millis]);
  return settled;
}
