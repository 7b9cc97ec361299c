import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import type { PortForm } from "../lib/port-form.ts";
import { INPUT } from "../lib/ui.ts";
import { errorFor, type TabProps } from "./types.ts";

const SWITCHES: [keyof PortForm, string][] = [
  ["unifyWallet", "adv.unify_wallet"],
  ["unifyDevice", "adv.unify_device"],
  ["okminer", "adv.okminer"],
  ["protect", "adv.protect"],
  ["forceSuccess", "adv.force_success"],
  ["oldModel", "adv.old_model"],
];

/** Options kept only so that a stored port can turn them off: the engine implements neither. */
const NOT_IMPLEMENTED: ReadonlySet<keyof PortForm> = new Set(["okminer"]);

/**
 * Advanced, other config and auth: the option switches, mallob port, display address, core info.
 * OKMiner optimisation and the Mallob port are not implemented (the server refuses them): they are
 * shown disabled, with the reason, unless a stored port has them on and needs to turn them off.
 */
export function AdvancedTab({ form, set, errors }: TabProps) {
  const mallobErr = errorFor(errors, "mallob");
  return (
    <div class="space-y-3">
      <div class="grid gap-2 sm:grid-cols-2">
        {SWITCHES.map(([key, label]) => (
          <Check
            key={key}
            label={t(label)}
            checked={form[key] === true}
            disabled={NOT_IMPLEMENTED.has(key) && form[key] !== true}
            onChange={(v) => set({ [key]: v })}
          />
        ))}
      </div>
      <p class="text-xs text-mute" data-testid="okminer-unavailable">
        {t("lang.proxy.err_okminer")}
      </p>
      {form.mode !== 2 && (form.unifyWallet || form.unifyDevice) && (
        <div class="grid gap-3 sm:grid-cols-2">
          <Field label={t("port.unify_wallet")}>
            <input
              class={INPUT}
              name="proxy_addr"
              value={form.proxy_addr}
              onInput={(e) => set({ proxy_addr: e.currentTarget.value })}
            />
          </Field>
          <Field label={t("port.unify_device")}>
            <input
              class={INPUT}
              name="proxy_device"
              value={form.proxy_device}
              onInput={(e) => set({ proxy_device: e.currentTarget.value })}
            />
          </Field>
        </div>
      )}
      <div class="grid gap-3 sm:grid-cols-2">
        <Field
          label={t("adv.mallob")}
          error={mallobErr ? t(mallobErr) : null}
          hint={t("lang.proxy.err_mallob_relay")}
        >
          <input
            class={INPUT}
            name="mallob"
            disabled={form.mallob.trim() === ""}
            type="number"
            min={0}
            max={65535}
            placeholder="65535"
            value={form.mallob}
            onInput={(e) => set({ mallob: e.currentTarget.value })}
          />
        </Field>
        <Field label={t("adv.ra")}>
          <input
            class={INPUT}
            name="ra"
            value={form.ra}
            onInput={(e) => set({ ra: e.currentTarget.value })}
          />
        </Field>
      </div>
    </div>
  );
}
