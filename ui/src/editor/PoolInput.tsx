import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { CONNECT_MODES, type PortForm } from "../lib/port-form.ts";
import { INPUT_BASE } from "../lib/ui.ts";
import { PoolTools } from "./PoolTools.tsx";

interface Props {
  form: PortForm;
  set: (patch: Partial<PortForm>) => void;
  which: 1 | 2;
  error: string | null;
}

/** Target (1) or standby (2) pool: address, protocol, connection test and preset-pool picker. */
export function PoolInput({ form, set, which, error }: Props) {
  const addrKey = which === 1 ? "pool_address" : "pool_address2";
  const modeKey = which === 1 ? "connect_mode" : "connect_mode2";
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
              <option key={m.code} value={m.code}>
                {m.label}
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
          <PoolTools
            coin={form.currency}
            address={form[addrKey]}
            mode={form[modeKey]}
            onSelect={(addr, mode) => set({ [addrKey]: addr, [modeKey]: mode })}
          />
        </div>
      </Field>
    </div>
  );
}
