import { useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { del, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";

interface Props {
  portId: number;
  wallets: string[];
  current: { addr: string; ratio: number }[];
  onClose: () => void;
  onDone: () => void;
}

/**
 * Set pump by wallet: a 0–100 slider (step 0.01) with a number input per wallet; save, reset, close.
 * Only the wallets the operator moved are saved: a wallet without an override keeps the port's ratio
 * (its row says so) instead of becoming a 0 % override because the dialog was opened.
 */
export function PumpDialog({ portId, wallets, current, onClose, onDone }: Props) {
  const init = Object.fromEntries(
    wallets.map((w) => [w, (current.find((c) => c.addr === w)?.ratio ?? 0) * 100]),
  );
  const [vals, setVals] = useState<Record<string, number>>(init);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const hasOverride = (w: string) => current.some((c) => c.addr === w);
  const set = (w: string, v: number) => {
    setVals({ ...vals, [w]: Math.min(100, Math.max(0, Math.round(v * 100) / 100)) });
    setTouched(new Set([...touched, w]));
  };
  const save = async () => {
    // One call per moved wallet, in sequence; a failure is reported and the next wallet proceeds (spec §7).
    for (const [i, w] of wallets.entries()) {
      if (!touched.has(w)) continue;
      try {
        await post(
          `/api/port/${portId}/wallet/ratio`,
          { wallet: w, wid: i + 1, r: vals[w] / 100 },
          { quiet: true },
        );
        toast("ok", t("pump.saved", { wallet: w, percent: vals[w] }));
      } catch {
        toast("err", t("lang.ratio.err_set"), w);
      }
    }
    onDone();
  };
  const reset = async () => {
    for (const w of wallets) {
      await del(`/api/port/${portId}/wallet/${encodeURIComponent(w)}/ratio`, undefined, {
        quiet: true,
      }).catch(() => toast("err", t("lang.ratio.err_clear"), w));
    }
    onDone();
  };
  return (
    <Modal
      title={t("pump.title")}
      onClose={onClose}
      testId="pump-dialog"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onClose}>
            {t("common.close")}
          </button>
          <button type="button" class={BTN_GHOST} onClick={reset}>
            {t("common.reset")}
          </button>
          <button type="button" class={BTN_PRIMARY} onClick={save}>
            {t("common.save")}
          </button>
        </>
      }
    >
      <div class="space-y-3">
        {wallets.map((w) => (
          <div key={w}>
            <div class="mb-1 break-all font-mono text-xs">
              {w}
              {!hasOverride(w) && !touched.has(w) && (
                <span class="ml-2 font-sans text-mute">{t("pump.port_ratio")}</span>
              )}
            </div>
            <div class="flex items-center gap-2">
              <input
                type="range"
                min={0}
                max={100}
                step={0.01}
                aria-label={t("pump.slider", { wallet: w })}
                class="flex-1 accent-[var(--acc)]"
                value={vals[w]}
                onInput={(e) => set(w, Number(e.currentTarget.value))}
              />
              <input
                type="number"
                min={0}
                max={100}
                step={0.01}
                aria-label={t("pump.number", { wallet: w })}
                class={`${INPUT_BASE} w-24`}
                value={vals[w]}
                onInput={(e) => set(w, Number(e.currentTarget.value))}
              />
              <span class="text-mute">%</span>
            </div>
          </div>
        ))}
      </div>
    </Modal>
  );
}
