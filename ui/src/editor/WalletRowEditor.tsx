import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { lazyNamed } from "../components/lazyNamed.ts";
import { t } from "../lib/i18n.ts";
import { CONNECT_MODES, feeProtocolAvailable, type WalletRow } from "../lib/port-form.ts";
import { currency } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { INPUT, INPUT_BASE } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import type { FieldError } from "../lib/validate/types.ts";
import { PoolTools } from "./PoolTools.tsx";
import { errorFor } from "./types.ts";

const SelectWallet = lazyNamed(() =>
  import("../dialogs/SelectPresetWallet.tsx").then((m) => m.SelectPresetWallet),
);

interface Props {
  index: number;
  row: WalletRow;
  /** the port's coin: the preset pickers and the connection test need it */
  coin: string;
  errors: FieldError[];
  poolLocked: boolean;
  onChange: (patch: Partial<WalletRow>) => void;
  onRemove: () => void;
}

/**
 * One fee wallet row: address (with the preset-wallet picker), device name, fee pool and protocol
 * (with the preset-pool picker and the connection test), percent 0–100 step 0.01. The port editor
 * and the hot-wallet editor both use it, pickers included.
 */
export function WalletRowEditor({ index, row, coin, errors, poolLocked, onChange, onRemove }: Props) {
  const [picking, setPicking] = useState(false);
  const category = useStore(currency)[coin]?.category;
  const n = index + 1;
  const err = (f: string) => {
    const k = errorFor(errors, f, n);
    return k ? t(k, { n }) : null;
  };
  const pickWallet = () => (coin ? setPicking(true) : toast("warn", t("preset.choose_coin_first")));
  return (
    <fieldset class="rounded border border-line p-3" data-wallet-row={n}>
      <legend class="px-1 text-xs text-mute">{t("editor.wallet_n", { n })}</legend>
      <div class="grid gap-2 sm:grid-cols-2">
        <Field label={t("wallet.addr")} error={err("addr")}>
          <div class="flex gap-1">
            <input
              class={INPUT}
              name={`addr-${n}`}
              value={row.addr}
              onInput={(e) => onChange({ addr: e.currentTarget.value })}
            />
            <button
              type="button"
              class="shrink-0 rounded border border-line px-2 text-xs hover:bg-panel2"
              onClick={pickWallet}
            >
              {t("preset.pick")}
            </button>
          </div>
        </Field>
        <Field label={t("wallet.device")} error={err("device")}>
          <input
            class={INPUT}
            name={`device-${n}`}
            value={row.device}
            onInput={(e) => onChange({ device: e.currentTarget.value })}
          />
        </Field>
        <Field
          label={t("wallet.pool")}
          error={err("pool_address")}
          hint={poolLocked ? t("mode.compatible_pool_locked") : undefined}
        >
          <div class="flex flex-wrap gap-1 sm:flex-nowrap">
            <select
              class={`${INPUT_BASE} w-24 shrink-0`}
              aria-label={t("port.pool_protocol")}
              disabled={poolLocked}
              value={row.pool_protocol}
              onChange={(e) => onChange({ pool_protocol: Number(e.currentTarget.value) })}
            >
              {CONNECT_MODES.map((m) => {
                const available = feeProtocolAvailable(m, category);
                return (
                  <option key={m.code} value={m.code} disabled={!available}>
                    {available ? m.label : `${m.label} — ${t("coin.not_available")}`}
                  </option>
                );
              })}
            </select>
            <input
              class={`${INPUT_BASE} min-w-0 flex-1`}
              name={`pool-${n}`}
              disabled={poolLocked}
              value={row.pool_address}
              onInput={(e) => onChange({ pool_address: e.currentTarget.value })}
            />
            <PoolTools
              coin={coin}
              address={row.pool_address}
              mode={row.pool_protocol}
              disabled={poolLocked}
              label={t("preset.pick_pool")}
              onSelect={(addr, mode) => onChange({ pool_address: addr, pool_protocol: mode })}
            />
          </div>
        </Field>
        <Field label={t("wallet.percent")} error={err("percent")}>
          <div class="flex items-center gap-2">
            <input
              class={INPUT}
              name={`percent-${n}`}
              type="number"
              min={0}
              max={100}
              step={0.01}
              value={row.percent}
              onInput={(e) => onChange({ percent: e.currentTarget.value })}
            />
            <span class="text-mute">%</span>
            <button
              type="button"
              class="shrink-0 rounded border border-line px-2 py-1 text-xs text-bad hover:bg-panel2"
              onClick={onRemove}
              aria-label={t("editor.remove_wallet", { n })}
            >
              ✕
            </button>
          </div>
        </Field>
      </div>
      <Suspense fallback={null}>
        {picking && (
          <SelectWallet
            onClose={() => setPicking(false)}
            onSelect={(addr) => {
              onChange({ addr });
              setPicking(false);
            }}
          />
        )}
      </Suspense>
    </fieldset>
  );
}
