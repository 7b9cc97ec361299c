import { useCallback, useEffect, useState } from "preact/hooks";

/** Loads once (and again on reload() or when deps change, or every refreshMs); keeps the last good value. */
export function useFetch<T>(load: () => Promise<T>, deps: unknown[], refreshMs = 0): [T | null, () => void] {
  const [value, setValue] = useState<T | null>(null);
  const run = useCallback(() => {
    load()
      .then(setValue)
      .catch(() => undefined);
  }, deps);
  useEffect(() => {
    run();
    if (!refreshMs) return;
    const id = setInterval(run, refreshMs);
    return () => clearInterval(id);
  }, [run, refreshMs]);
  return [value, run];
}
