import { t } from "../lib/i18n.ts";
import { dismiss, toasts } from "../lib/toast.ts";
import { useStore } from "../lib/use-store.ts";

const COLORS = { ok: "border-ok", err: "border-bad", warn: "border-warn" };

/** The toast stack, top right, announced politely. */
export function Toasts() {
  const list = useStore(toasts);
  return (
    <div aria-live="polite" class="fixed bottom-2 right-2 z-50 flex w-80 max-w-[95vw] flex-col gap-2">
      {list.map((x) => (
        <div
          key={x.id}
          data-kind={x.kind}
          class={`rounded border-l-4 ${COLORS[x.kind]} bg-panel2 p-2 text-sm shadow-lg`}
        >
          <div class="flex justify-between gap-2">
            <span data-testid="toast">{x.text}</span>
            <button
              type="button"
              class="text-mute"
              aria-label={t("common.close")}
              onClick={() => dismiss(x.id)}
            >
              ×
            </button>
          </div>
          {x.detail && <div class="mt-1 break-all text-xs text-mute">{x.detail}</div>}
        </div>
      ))}
    </div>
  );
}
