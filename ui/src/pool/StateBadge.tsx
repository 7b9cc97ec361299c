import { t } from "../lib/i18n.ts";
import type { RunState } from "../lib/port-types.ts";

const COLORS: Record<RunState, string> = {
  active: "text-ok border-ok",
  closed: "text-mute border-line",
  queuing: "text-warn border-warn",
};

/** Port status: normal, closed or queuing. */
export function StateBadge({ state }: { state: RunState }) {
  return (
    <span data-state={state} class={`rounded border px-1.5 py-0.5 text-xs ${COLORS[state] ?? COLORS.closed}`}>
      {t(`state.${state}`)}
    </span>
  );
}
