interface Props {
  label: string;
  value: string;
  sub?: string;
  /** 0..100 usage bar */
  bar?: number;
}

/** One figure of the overview. */
export function StatCard({ label, value, sub, bar }: Props) {
  return (
    <div class="rounded-lg border border-line bg-panel p-2">
      <div class="truncate text-xs text-mute">{label}</div>
      <div class="truncate text-lg font-semibold">{value}</div>
      {bar !== undefined && (
        <div class="mt-1 h-1 rounded bg-panel2" aria-hidden="true">
          <div
            class={`h-1 rounded ${bar > 85 ? "bg-bad" : "bg-acc"}`}
            style={{ width: `${Math.min(100, Math.max(0, bar))}%` }}
          />
        </div>
      )}
      {sub && <div class="truncate text-xs text-mute">{sub}</div>}
    </div>
  );
}
