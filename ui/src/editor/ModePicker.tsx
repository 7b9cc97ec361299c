import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";
import { errorFor, type TabProps } from "./types.ts";

const MODES = ["mode.efficient", "mode.compatible", "mode.pool"];

/**
 * Connection mode: Efficient (0), Compatible (1, warning), Pool (2, unified wallet and device required).
 * A mode the chosen coin's protocol family does not implement is shown disabled (`offered`).
 */
export function ModePicker({ form, set, errors, offered }: TabProps & { offered: number[] | null }) {
  const available = (code: number) => offered === null || offered.includes(code);
  const err = (f: string) => {
    const k = errorFor(errors, f);
    return k ? t(k) : null;
  };
  return (
    <fieldset class="sm:col-span-2">
      <legend class="mb-1 text-xs text-mute">{t("port.mode")}</legend>
      <div class="flex flex-wrap gap-3">
        {MODES.map((key, code) => (
          <label key={key} class="inline-flex items-center gap-1 text-sm">
            <input
              type="radio"
              name="mode"
              value={code}
              checked={form.mode === code}
              disabled={!available(code)}
              onChange={() => set({ mode: code })}
            />
            {t(key)}
            {!available(code) && <span class="text-xs text-mute"> ({t("coin.not_available")})</span>}
          </label>
        ))}
      </div>
      <p class="mt-1 text-xs text-mute">{t(`${MODES[form.mode]}_hint`)}</p>
      {err("mode") && (
        <p role="alert" class="mt-1 text-xs text-warn">
          {err("mode")}
        </p>
      )}
      {form.mode === 1 && (
        <p role="alert" class="mt-1 text-xs text-warn">
          {t("mode.compatible_warning")}
        </p>
      )}
      {form.mode === 2 && (
        <div class="mt-2 grid gap-3 sm:grid-cols-2">
          <Field label={t("port.unify_wallet")} error={err("proxy_addr")}>
            <input
              class={INPUT}
              name="proxy_addr"
              value={form.proxy_addr}
              onInput={(e) => set({ proxy_addr: e.currentTarget.value })}
            />
          </Field>
          <Field label={t("port.unify_device")} error={err("proxy_device")}>
            <input
              class={INPUT}
              name="proxy_device"
              value={form.proxy_device}
              onInput={(e) => set({ proxy_device: e.currentTarget.value })}
            />
          </Field>
        </div>
      )}
    </fieldset>
  );
}
