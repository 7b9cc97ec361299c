import { inflight } from "../lib/api.ts";
import { useStore } from "../lib/use-store.ts";

/** The thin progress bar shown while requests (navigation loads, port loads) are in flight. */
export function ProgressBar() {
  const n = useStore(inflight);
  if (n <= 0) return null;
  return (
    <div
      role="progressbar"
      aria-label="loading"
      class="fixed left-0 right-0 top-0 z-50 h-0.5 overflow-hidden"
    >
      <div class="h-full w-1/3 animate-pulse bg-acc" />
    </div>
  );
}
