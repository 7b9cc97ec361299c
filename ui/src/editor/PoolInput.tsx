import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { lazyNamed } from "../components/lazyNamed.ts";
import { t } from "../lib/i18n.ts";
import { CONNECT_MODES, type PortForm } from "../lib/port-form.ts";
import { toast } from "../lib/toast.ts";
import { INPUT_BASE } from "../lib/ui.ts";
import { PingButton } from "./PingButton.tsx";

const SelectPool = lazyNamed(() => import("../dialogs/SelectPresetPool.tsx").then((m) => m.SelectPresetPool));

interface Props {
  form: PortForm;
  set: (patch: Partial<PortForm>) => void;
  which: 1 | 2;
  error: string | null;
}

/** Target (1) or standby (2) pool: address, protocol, connection test and preset-pool picker. */
export function PoolInput({ form, set, which, error }: Props) {
  const [picking, setPicking] = useState(false);
  const addrKey = which === 1 ? "pool_address" : "pool_address2";
  const modeKey = which === 1 ? "connect_mode" : "connect_mode2";
  const pick = () => (form.currency ? setPicking(true) : toast("warn", t("preset.choose_coin_first")));
  return (
    <div class="sm:col-span-2">
      <Field label={t(which === 1 ? "port.pool" : "port.pool2")} error={error}>
        <div class="flex flex-wrap gap-2 sm:flex-nowrap">
          <select
            class={`${INPUT_BASE} w-24 shrink-0`}
            aria-label={t("port.pool_protocol")}
            value={form[modeKey]}
            onChange={(e) => set({ [modeKey]: Number(e.currentTarget.value) })}
          >
            {CONNECT_MODES.map((m) => (
              <option key={m.code} value={m.code} disabled={!m.available}>
                {m.available ? m.label : `${m.label} — ${t("coin.not_available")}`}
              </option>
            ))}
          </select>
          <input
            class={`${INPUT_BASE} min-w-0 flex-1`}
            name={addrKey}
            placeholder="host:port"
            value={form[addrKey]}
            onInput={(e) => set({ [addrKey]: e.currentTarget.value })}
          />
          <button
            type="button"
            class="shrink-0 rounded border border-line px-2 text-sm hover:bg-panel2"
            onClick={pick}
          >
            {t("preset.pick")}
          </button>
          <PingButton
            address={form[addrKey]}
            connType={form[modeKey] === 1 ? 1 : 0}
            currency={form.currency}
          />
        </div>
      </Field>
      <Suspense fallback={null}>
        {picking && (
          <SelectPool
            coin={form.currency}
            onClose={() => setPicking(false)}
            onSelect={(addr, mode) => {
              set({ [addrKey]: addr, [modeKey]: mode });
              setPicking(false);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
